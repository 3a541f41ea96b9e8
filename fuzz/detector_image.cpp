// Detector image readers (HDF5/NeXus, TIFF, CBF, EDF), chosen by the
// extension the build gives (fuzz/CMakeLists.txt).
#include <sanitizer/common_interface_defs.h>

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
// What a contained execution costs decides how many a core runs (the
// issue asks 10^6 per parser): measured on the 2-core VM, one job, one
// corpus, 30 s each (bench/results/2026-11-26-fuzz-hdf5-million.md):
// - An input on which libhdf5 loops costs the whole time limit, and its
//   mutants loop too. At 1 s that was most of the fuzzer's time (25
//   executions/s per core with two jobs). A few kB take ~8 ms even under
//   ASan (the slowest legitimate read seen, 45 ms), and a slow read is only
//   a one-line Error here: 0.05 s (68 executions/s at 0.1 s, 106 at 0.05).
// - The rest is mostly the kernel's fork and exit, which grow with this
//   process's resident memory: ASan's quarantine of freed blocks (256 MB
//   by default) is held to 16 MB (122 executions/s).
//
// Built with NANOSCATTER_FUZZ_IN_PROCESS (fuzz_detector_hdf5_inprocess,
// fuzz_detector_cbf_inprocess) they decode in this process instead
// (ContainedReadOptions::in_process): libFuzzer sees our HDF5 and CBF code
// and the libraries, at thousands of executions per second. A crash inside
// libhdf5 or CBFlib is then a finding here that the child contains in
// production (bench/results/2026-11-26-fuzz.md says how each was handled).
constexpr double kFuzzReadTimeLimitS = 0.05;
constexpr std::size_t kFuzzReadMemoryLimitBytes = std::size_t(1) << 30;
#ifdef NANOSCATTER_FUZZ_IN_PROCESS
constexpr bool kInProcess = true;
#else
constexpr bool kInProcess = false;
#endif
}  // namespace

#ifdef NANOSCATTER_FUZZ_IN_PROCESS
// In place of the child's memory limit: libhdf5 and CBFlib malloc whatever
// a crafted header says (finding 6: 0.9 GB to 3 PB, memset, 8 s an input),
// and here a malloc over 256 MB returns null, which they report as an
// error. Ours use operator new, which still aborts past it: a finding, as
// it should be (our sizes are checked first; the largest image the limits
// above allow is 134 MB). ASAN_OPTIONS, where it sets these, wins.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=256"; }
#else
// Contained, a libhdf5 malloc that ASan cannot serve (petabytes, or more
// than the machine maps) returns null in the child, which libhdf5 reports,
// instead of a symbolized ASan report per input (432 in 8,146 executions,
// bench/results/2026-11-26-fuzz.md). Ours use operator new, which still
// aborts. The quarantine: see the cost above (the TIFF and EDF fuzzers,
// built from this file too, keep 16 MB: more than all an input of a few
// kB frees).
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:quarantine_size_mb=16"; }

// A child's ASan report on libhdf5's own errors is symbolized to match
// scripts/asan.supp, and each child used to start its own llvm-symbolizer
// (a process loading libLLVM: 15% of the fuzzer's time). Started here, in
// the parent, before any fork, it is inherited: one child at a time uses
// it while the parent waits. (A child killed in mid-query could leave a
// stale answer for the parent's next symbolization, which only a finding's
// report makes; the finding's input is kept and replays.)
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char function[256];
  __sanitizer_symbolize_pc(__builtin_return_address(0), "%f", function, sizeof function);
  return 0;
}
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // In process, libhdf5 may keep a file it failed on open, and it finds an
  // open file again by its inode: each input gets a file of its own.
  const std::string path = kInProcess ? nanoscatter::fuzz::fresh_input_file(data, size, NANOSCATTER_FUZZ_EXTENSION)
                                      : nanoscatter::fuzz::input_file(data, size, NANOSCATTER_FUZZ_EXTENSION);
  nanoscatter::DetectorReadOptions options;
  options.max_side = kFuzzMaxSide;
  options.max_pixels = kFuzzMaxPixels;
  options.contain.time_limit_s = kFuzzReadTimeLimitS;
  options.contain.memory_limit_bytes = kFuzzReadMemoryLimitBytes;
  options.contain.in_process = kInProcess;
  nanoscatter::fuzz::expect_read_or_refused([&] { nanoscatter::read_detector_image(path, options); });
  return 0;
}
