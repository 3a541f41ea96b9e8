// Detector image readers (HDF5/NeXus, TIFF, CBF, EDF), chosen by the
// extension the build gives (fuzz/CMakeLists.txt).
#include "harness.hpp"
#include "nanoscatter/detector_image.hpp"

namespace {
// Below libFuzzer's 2 GB memory limit: a header may legally ask for the
// reader's default maximum (2 GiB of float64), which would be reported as an
// out-of-memory finding; the limits themselves are unit-tested.
constexpr std::size_t kFuzzMaxSide = 4096;
constexpr std::size_t kFuzzMaxPixels = kFuzzMaxSide * kFuzzMaxSide;
// HDF5 and CBF are decoded in a child process (src/io/contained_read.hpp):
// its limits below libFuzzer's (-timeout=10, -rss_limit_mb=2048, fuzz.sh),
// so that a library that loops or grows is our one-line Error, not a
// timeout or out-of-memory finding. libFuzzer sees no coverage inside the
// child: these fuzzers exercise our side (the CBF header checks, the pipe
// protocol, the checks of what comes back).
constexpr double kFuzzReadTimeLimitS = 2;
constexpr std::size_t kFuzzReadMemoryLimitBytes = std::size_t(1) << 30;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = nanoscatter::fuzz::input_file(data, size, NANOSCATTER_FUZZ_EXTENSION);
  nanoscatter::DetectorReadOptions options;
  options.max_side = kFuzzMaxSide;
  options.max_pixels = kFuzzMaxPixels;
  options.contain.time_limit_s = kFuzzReadTimeLimitS;
  options.contain.memory_limit_bytes = kFuzzReadMemoryLimitBytes;
  nanoscatter::fuzz::expect_read_or_refused([&] { nanoscatter::read_detector_image(path, options); });
  return 0;
}
