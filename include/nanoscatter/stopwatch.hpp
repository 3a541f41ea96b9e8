// Wall-clock time of a run, in seconds, by the monotonic clock (immune to
// clock adjustments): the times that results and the CLI report.
#pragma once
#include <chrono>

namespace nanoscatter {

class Stopwatch {
 public:
  Stopwatch() : start_(Clock::now()) {}
  // Seconds since construction or the last restart().
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  void restart() { start_ = Clock::now(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

}  // namespace nanoscatter
