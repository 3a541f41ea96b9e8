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
  void validate() const;
};

}  // namespace nanoscatter
