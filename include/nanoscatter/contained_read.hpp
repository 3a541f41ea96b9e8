// Limits for reads that run a third-party decoder (libhdf5, CBFlib) in a
// child process (src/io/contained_read.hpp says why and what it costs).
// A read that exceeds a limit, or makes the decoder crash, is killed and
// ends in a one-line Error naming the file.
#pragma once
#include <cstddef>

namespace nanoscatter {

inline constexpr double kDefaultReadTimeLimitS = 60;
// The decoder's own growth over the process it was forked from; lowered at
// run time to the memory the machine has available (available_host_bytes).
inline constexpr std::size_t kDefaultReadMemoryLimitBytes = std::size_t(8'000'000'000);

struct ContainedReadOptions {
  double time_limit_s = kDefaultReadTimeLimitS;  // wall time of one file's read, seconds
  std::size_t memory_limit_bytes = kDefaultReadMemoryLimitBytes;
  // For fuzzing and tests only, never for files from users: the decoder
  // runs in this process, uncontained. No limit is enforced, a crash in
  // the library is this process's crash, and an exception other than
  // nanoscatter::Error (std::bad_alloc included) passes through unchanged
  // instead of becoming a one-line Error. What it is for: libFuzzer sees
  // no coverage in a child process, and a fork per input caps a fuzzer at
  // tens of executions per second (fuzz/, *_inprocess). The result still
  // goes through the same encoding and checks as a contained read's.
  bool in_process = false;
  void validate() const;
};

}  // namespace nanoscatter
