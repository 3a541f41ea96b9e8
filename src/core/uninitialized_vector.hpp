// A std::vector whose elements are default-initialised instead of
// value-initialised: for trivial types the size constructor and resize()
// leave the memory as it is, so a large buffer is first touched by the
// (parallel) loop that fills it rather than by a serial zero-fill (16 MB:
// ~2 ms on one core with its page faults, on the GPU histogram's path to
// its first kernel).
#pragma once
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace nanoscatter {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  using std::allocator<T>::allocator;
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace nanoscatter
