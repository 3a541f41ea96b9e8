// Exceptions inside OpenMP parallel loops. An exception must not leave an
// OpenMP structured block (the program would terminate), so each iteration
// runs its work through capture(), which keeps the first exception that any
// thread records and lets the loop finish; after the parallel region,
// rethrow() throws it on the calling thread. When several iterations fail,
// which one is "first" may differ from run to run.
#pragma once
#include <exception>
#include <mutex>

namespace nanoscatter {

class OmpErrors {
 public:
  template <class Work>
  void capture(Work&& work) noexcept {
    try {
      work();
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!first_) first_ = std::current_exception();
    }
  }

  // After the parallel region: throws the recorded exception, if any.
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr first_;
};

}  // namespace nanoscatter
