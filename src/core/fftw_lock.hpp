// One process-wide lock for FFTW's planner. FFTW's planner is not
// thread-safe (FFTW manual §5.4 "Thread safety": only the fftw_execute
// family may run concurrently): creating or destroying a plan touches the
// planner's shared state (wisdom, twiddle tables). The library plans on
// OpenMP threads (RMC tiles), and the Python bindings release the GIL, so
// two threads of one process can reach the planner at once. Every
// fftw_plan_* / fftwf_plan_* and fftw_destroy_plan / fftwf_destroy_plan in
// the code base therefore runs under this lock (one for both precisions,
// which keeps the rule simple); executing a plan needs no lock.
#pragma once
#include <mutex>
#include <utility>

namespace nanoscatter {

std::mutex& fftw_planner_mutex();

// Runs `planner_call` (a plan's creation or destruction) under
// fftw_planner_mutex() and returns what it returns.
template <class F>
decltype(auto) with_fftw_planner(F&& planner_call) {
  const std::lock_guard lock(fftw_planner_mutex());
  return std::forward<F>(planner_call)();
}

}  // namespace nanoscatter
