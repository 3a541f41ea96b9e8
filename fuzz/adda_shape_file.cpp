// ADDA text shape files (dda --shape-file).
#include "harness.hpp"
#include "nanoscatter/dda.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = nanoscatter::fuzz::input_file(data, size, NANOSCATTER_FUZZ_EXTENSION);
  nanoscatter::fuzz::expect_read_or_refused([&] { nanoscatter::read_adda_shape_file(path); });
  return 0;
}
