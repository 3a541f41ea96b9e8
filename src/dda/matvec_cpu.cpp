#include "dda/matvec_cpu.hpp"

#include <fftw3.h>
#include <omp.h>

#include <algorithm>
#include <cstring>

#include "core/fftw_lock.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::dda {

namespace {

// FFTW's double and single precision APIs behind one name; plans are made
// and destroyed under the planner lock (core/fftw_lock.hpp).
template <class Real>
struct Fftw;
template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using cpx = fftw_complex;
  static plan many(int n, int howmany, cpx* p, int stride, int dist, int sign) {
    return with_fftw_planner([&] {
      return fftw_plan_many_dft(1, &n, howmany, p, nullptr, stride, dist, p, nullptr, stride, dist, sign,
                                FFTW_ESTIMATE | FFTW_UNALIGNED);
    });
  }
  static void exec(plan pl, void* p) { fftw_execute_dft(pl, static_cast<cpx*>(p), static_cast<cpx*>(p)); }
  static void destroy(plan pl) {
    with_fftw_planner([&] { fftw_destroy_plan(pl); });
  }
  static void* alloc(std::size_t bytes) { return fftw_malloc(bytes); }
  static void release(void* p) { fftw_free(p); }
};
template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using cpx = fftwf_complex;
  static plan many(int n, int howmany, cpx* p, int stride, int dist, int sign) {
    return with_fftw_planner([&] {
      return fftwf_plan_many_dft(1, &n, howmany, p, nullptr, stride, dist, p, nullptr, stride, dist, sign,
                                 FFTW_ESTIMATE | FFTW_UNALIGNED);
    });
  }
  static void exec(plan pl, void* p) { fftwf_execute_dft(pl, static_cast<cpx*>(p), static_cast<cpx*>(p)); }
  static void destroy(plan pl) {
    with_fftw_planner([&] { fftwf_destroy_plan(pl); });
  }
  static void* alloc(std::size_t bytes) { return fftwf_malloc(bytes); }
  static void release(void* p) { fftwf_free(p); }
};

}  // namespace

template <class Real>
struct CpuMatvec<Real>::Plans {
  typename Fftw<Real>::plan xf, xb;    // by lines of length gx (dist gx)
  typename Fftw<Real>::plan yf, yb;    // bz rows of length gy (dist gy)
  typename Fftw<Real>::plan zf, zb;    // gy lines of length gz (stride gy, dist 1)
};

template <class Real>
CpuMatvec<Real>::CpuMatvec(const MatrixSpec& spec, const Workspace* borrow)
    : box_(spec.box), grid_(spec.grid), position_(spec.position) {
  using F = Fftw<Real>;
  threads_ = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  const InteractionFft& it = *spec.interaction;
  dsize_y_ = it.dsize_y;
  dsize_z_ = it.dsize_z;
  dt_.resize(it.data.size());
  for (std::size_t i = 0; i < dt_.size(); ++i) dt_[i] = C(it.data[i]);
  s_ = spec.s;
  const int gx = grid_[0], gy = grid_[1], gz = grid_[2], by = box_[1], bz = box_[2];
  const std::size_t xsize = 3ull * bz * by * gx;
  const std::size_t ssize = 3ull * gz * gy;
  if (borrow) {
    if (static_cast<int>(borrow->slices.size()) < threads_) fail("CpuMatvec: borrowed workspace has too few slices");
    owns_work_ = false;
    x_ = static_cast<C*>(borrow->x);
    for (int t = 0; t < threads_; ++t) slices_.push_back(static_cast<C*>(borrow->slices[t]));
  } else {
    x_ = static_cast<C*>(F::alloc(xsize * sizeof(C)));
    for (int t = 0; t < threads_; ++t) slices_.push_back(static_cast<C*>(F::alloc(ssize * sizeof(C))));
  }
  if (!x_) fail("DDA: cannot allocate the FFT work array (", xsize * sizeof(C), " bytes)");
  for (C* s : slices_)
    if (!s) fail("DDA: cannot allocate the FFT slices");
  plans_ = new Plans;
  auto* xp = reinterpret_cast<typename F::cpx*>(x_);
  auto* sp = reinterpret_cast<typename F::cpx*>(slices_[0]);
  plans_->xf = F::many(gx, by, xp, 1, gx, FFTW_FORWARD);
  plans_->xb = F::many(gx, by, xp, 1, gx, FFTW_BACKWARD);
  plans_->yf = F::many(gy, bz, sp, 1, gy, FFTW_FORWARD);
  plans_->yb = F::many(gy, bz, sp, 1, gy, FFTW_BACKWARD);
  plans_->zf = F::many(gz, gy, sp, gy, 1, FFTW_FORWARD);
  plans_->zb = F::many(gz, gy, sp, gy, 1, FFTW_BACKWARD);
  if (!plans_->xf || !plans_->xb || !plans_->yf || !plans_->yb || !plans_->zf || !plans_->zb)
    fail("DDA: FFTW planning failed");
}

template <class Real>
CpuMatvec<Real>::~CpuMatvec() {
  using F = Fftw<Real>;
  if (plans_) {
    F::destroy(plans_->xf);
    F::destroy(plans_->xb);
    F::destroy(plans_->yf);
    F::destroy(plans_->yb);
    F::destroy(plans_->zf);
    F::destroy(plans_->zb);
    delete plans_;
  }
  if (owns_work_) {
    F::release(x_);
    for (C* s : slices_) F::release(s);
  }
}

template <class Real>
typename CpuMatvec<Real>::Workspace CpuMatvec<Real>::workspace() const {
  Workspace w;
  w.x = x_;
  for (C* s : slices_) w.slices.push_back(s);
  return w;
}

template <class Real>
void CpuMatvec<Real>::apply(const V* in_arg, V* out, bool hermitian) {
  using F = Fftw<Real>;
  const int gx = grid_[0], gy = grid_[1], gz = grid_[2];
  const int bx = box_[0], by = box_[1], bz = box_[2];
  const std::size_t n = position_.size();
  const V* in = in_arg;
  if (hermitian) {  // A^H y = conj(A conj(y)) for the complex-symmetric A
    conj_in_.resize(3 * n);
    for (std::size_t i = 0; i < 3 * n; ++i) conj_in_[i] = std::conj(in_arg[i]);
    in = conj_in_.data();
  }
  const std::size_t plane = static_cast<std::size_t>(by) * gx;  // one (c, z) plane of X
  const std::size_t comp = static_cast<std::size_t>(bz) * plane;
  // 1. X = S·in on the box (product in double, rounded to Real), zero elsewhere
  std::memset(static_cast<void*>(x_), 0, 3 * comp * sizeof(C));
#pragma omp parallel for schedule(static) num_threads(threads_)
  for (std::size_t p = 0; p < n; ++p) {
    const auto& r = position_[p];
    const std::size_t idx = static_cast<std::size_t>(r[2]) * plane + static_cast<std::size_t>(r[1]) * gx + r[0];
    for (int c = 0; c < 3; ++c) x_[c * comp + idx] = C(s_[p] * in[3 * p + c]);
  }
  // 2. forward FFT along x over the box's (y, z) lines
#pragma omp parallel for schedule(static) num_threads(threads_)
  for (int cz = 0; cz < 3 * bz; ++cz) F::exec(plans_->xf, x_ + static_cast<std::size_t>(cz) * plane);
  // 3. slab by slab: y, z FFTs, 3×3 product, inverse z, y FFTs
  const std::size_t sc = static_cast<std::size_t>(gz) * gy;  // one component of a slice
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
  for (int ix = 0; ix < gx; ++ix) {
    C* sl = slices_[omp_get_thread_num()];
    std::memset(static_cast<void*>(sl), 0, 3 * sc * sizeof(C));
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < bz; ++k) {
        const C* src = x_ + c * comp + static_cast<std::size_t>(k) * plane + ix;
        C* dst = sl + c * sc + static_cast<std::size_t>(k) * gy;
        for (int j = 0; j < by; ++j) dst[j] = src[static_cast<std::size_t>(j) * gx];
      }
    for (int c = 0; c < 3; ++c) F::exec(plans_->yf, sl + c * sc);
    for (int c = 0; c < 3; ++c) F::exec(plans_->zf, sl + c * sc);
    const C* dx = dt_.data() + static_cast<std::size_t>(ix) * dsize_z_ * dsize_y_ * 6;
    for (int z = 0; z < gz; ++z) {
      const bool zr = z >= dsize_z_;
      const int zz = zr ? gz - z : z;
      for (int y = 0; y < gy; ++y) {
        const bool yr = y >= dsize_y_;
        const int yy = yr ? gy - y : y;
        const C* d = dx + (static_cast<std::size_t>(zz) * dsize_y_ + yy) * 6;
        // the y (z) reflection flips the components odd in y (z): xy, yz (xz, yz)
        const C dxy = yr ? -d[1] : d[1];
        const C dxz = zr ? -d[2] : d[2];
        const C dyz = (yr != zr) ? -d[4] : d[4];
        const std::size_t i = static_cast<std::size_t>(z) * gy + y;
        const C a = sl[i], b = sl[sc + i], e = sl[2 * sc + i];
        sl[i] = d[0] * a + dxy * b + dxz * e;
        sl[sc + i] = dxy * a + d[3] * b + dyz * e;
        sl[2 * sc + i] = dxz * a + dyz * b + d[5] * e;
      }
    }
    for (int c = 0; c < 3; ++c) F::exec(plans_->zb, sl + c * sc);
    for (int c = 0; c < 3; ++c) F::exec(plans_->yb, sl + c * sc);
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < bz; ++k) {
        C* dst = x_ + c * comp + static_cast<std::size_t>(k) * plane + ix;
        const C* src = sl + c * sc + static_cast<std::size_t>(k) * gy;
        for (int j = 0; j < by; ++j) dst[static_cast<std::size_t>(j) * gx] = src[j];
      }
  }
  // 4. inverse FFT along x
#pragma omp parallel for schedule(static) num_threads(threads_)
  for (int cz = 0; cz < 3 * bz; ++cz) F::exec(plans_->xb, x_ + static_cast<std::size_t>(cz) * plane);
  // 5. out = in + S·(D S in) in double; the 1/N of the inverse FFT and the sign are in Dt
#pragma omp parallel for schedule(static) num_threads(threads_)
  for (std::size_t p = 0; p < n; ++p) {
    const auto& r = position_[p];
    const std::size_t idx = static_cast<std::size_t>(r[2]) * plane + static_cast<std::size_t>(r[1]) * gx + r[0];
    for (int c = 0; c < 3; ++c) {
      const V v = in[3 * p + c] + s_[p] * V(x_[c * comp + idx]);
      out[3 * p + c] = hermitian ? std::conj(v) : v;
    }
  }
  (void)bx;
}

template class CpuMatvec<float>;
template class CpuMatvec<double>;

}  // namespace nanoscatter::dda
