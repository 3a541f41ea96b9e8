// The FFTW planner lock (fftw_lock.hpp).
#include "core/fftw_lock.hpp"

namespace nanoscatter {

std::mutex& fftw_planner_mutex() {
  static std::mutex m;  // one per process, like the FFTW planner state it guards
  return m;
}

}  // namespace nanoscatter
