// CPU solver backend: vectors in host memory in the storage precision,
// OpenMP loops, reductions accumulated in double.
#include <omp.h>

#include <memory>

#include "dda/backends.hpp"
#include "dda/matvec_cpu.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::dda {

namespace {

template <class Real>
class CpuBackend final : public SolverBackend {
 public:
  using C = std::complex<Real>;
  CpuBackend(const MatrixSpec& spec)
      : n_(3 * spec.position.size()), threads_(spec.threads > 0 ? spec.threads : omp_get_max_threads()),
        matvec_(spec) {}
  std::size_t length() const override { return n_; }
  int create() override {
    if (!free_.empty()) {
      const int v = free_.back();
      free_.pop_back();
      vecs_[v].assign(n_, C(0));
      return v;
    }
    vecs_.emplace_back(n_, C(0));
    return static_cast<int>(vecs_.size()) - 1;
  }
  void release(int v) override {
    std::vector<C>().swap(vecs_[v]);
    free_.push_back(v);
  }
  void upload(int v, const std::vector<cplx>& h) override {
    if (h.size() != n_) fail("CpuBackend::upload: size mismatch");
    for (std::size_t i = 0; i < n_; ++i) vecs_[v][i] = C(h[i]);
  }
  std::vector<cplx> download(int v) override {
    std::vector<cplx> h(n_);
    for (std::size_t i = 0; i < n_; ++i) h[i] = cplx(vecs_[v][i]);
    return h;
  }
  void copy(int dst, int src) override { vecs_[dst] = vecs_[src]; }
  void set_zero(int v) override { std::fill(vecs_[v].begin(), vecs_[v].end(), C(0)); }
  void matvec(int in, int out, bool hermitian, double* norm2_out) override {
    matvec_.apply(vecs_[in].data(), vecs_[out].data(), hermitian);
    ++matvecs_;
    if (norm2_out) *norm2_out = norm2(out);
  }
  void lincomb(int dst, cplx a, int x, cplx b, int y, cplx c, int z, double* norm2_out) override {
    C* d = vecs_[dst].data();
    const C* px = vecs_[x].data();
    const C* py = vecs_[y].data();
    const C* pz = z >= 0 ? vecs_[z].data() : nullptr;
    const C ca(a), cb(b), cc(c);
    double acc = 0;
    const long n = static_cast<long>(n_);
#pragma omp parallel for schedule(static) reduction(+ : acc) num_threads(threads_)
    for (long i = 0; i < n; ++i) {
      C v = ca * px[i] + cb * py[i];
      if (pz) v += cc * pz[i];
      d[i] = v;
      acc += static_cast<double>(std::norm(v));
    }
    if (norm2_out) *norm2_out = acc;
  }
  cplx dot_u(int x, int y) override { return dot(x, y, false); }
  cplx dot_c(int x, int y) override { return dot(x, y, true); }
  double norm2(int x) override {
    const C* p = vecs_[x].data();
    double acc = 0;
    const long n = static_cast<long>(n_);
#pragma omp parallel for schedule(static) reduction(+ : acc) num_threads(threads_)
    for (long i = 0; i < n; ++i) acc += static_cast<double>(std::norm(p[i]));
    return acc;
  }
  void dot_u_self_and_norm2(int x, cplx* dot_out, double* norm2_out) override {
    const C* p = vecs_[x].data();
    double re = 0, im = 0, nn = 0;
    const long n = static_cast<long>(n_);
#pragma omp parallel for schedule(static) reduction(+ : re, im, nn) num_threads(threads_)
    for (long i = 0; i < n; ++i) {
      const cplx v(p[i]);
      const cplx sq = v * v;
      re += sq.real();
      im += sq.imag();
      nn += std::norm(v);
    }
    *dot_out = cplx(re, im);
    *norm2_out = nn;
  }
  int matvec_count() const override { return matvecs_; }

 private:
  cplx dot(int x, int y, bool conj_x) {
    const C* px = vecs_[x].data();
    const C* py = vecs_[y].data();
    double re = 0, im = 0;
    const long n = static_cast<long>(n_);
#pragma omp parallel for schedule(static) reduction(+ : re, im) num_threads(threads_)
    for (long i = 0; i < n; ++i) {
      const cplx a(px[i]), b(py[i]);
      const cplx v = conj_x ? std::conj(a) * b : a * b;
      re += v.real();
      im += v.imag();
    }
    return {re, im};
  }

  std::size_t n_;
  int threads_;
  CpuMatvec<Real> matvec_;
  std::vector<std::vector<C>> vecs_;
  std::vector<int> free_;
  int matvecs_ = 0;
};

}  // namespace

std::unique_ptr<SolverBackend> make_cpu_backend(const MatrixSpec& spec, Precision precision) {
  if (precision == Precision::single) return std::make_unique<CpuBackend<float>>(spec);
  return std::make_unique<CpuBackend<double>>(spec);
}

}  // namespace nanoscatter::dda
