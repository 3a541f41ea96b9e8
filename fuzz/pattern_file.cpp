// One-dimensional pattern readers (.gr, .xy, ...), chosen by the extension
// the build gives (fuzz/CMakeLists.txt).
#include "harness.hpp"
#include "nanoscatter/pattern1d.hpp"

namespace {
// Below libFuzzer's 2 GB memory limit (a declared count up to the default
// 1e8 rows is legal and would be an out-of-memory finding); the limit itself
// is unit-tested.
constexpr std::size_t kFuzzMaxRows = 1'000'000;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = nanoscatter::fuzz::input_file(data, size, NANOSCATTER_FUZZ_EXTENSION);
  nanoscatter::PatternReadOptions options;
  options.max_rows = kFuzzMaxRows;
  nanoscatter::fuzz::expect_read_or_refused([&] { nanoscatter::read_pattern(path, options); });
  return 0;
}
