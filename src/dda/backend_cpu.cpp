// CPU solver backend: vectors in host memory in complex double, OpenMP loops,
// reductions in double. The product runs with double FFTs, or in single
// (mixed) precision with float FFTs that borrow the double product's work
// arrays; the double product stays available as matvec_exact().
#include <omp.h>

#include <memory>

#include "dda/backends.hpp"
#include "dda/matvec_cpu.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::dda {

namespace {

class CpuBackend final : public SolverBackend {
 public:
  using C = std::complex<double>;
  CpuBackend(const MatrixSpec& spec, Precision precision)
      : n_(3 * spec.position.size()), threads_(spec.threads > 0 ? spec.threads : omp_get_max_threads()),
        exact_(spec) {
    if (precision == Precision::float32) {
      const auto w = exact_.workspace();
      CpuMatvec<float>::Workspace wf{w.x, w.slices};
      fast_ = std::make_unique<CpuMatvec<float>>(spec, &wf);
    }
  }
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
    vecs_[v] = h;
  }
  std::vector<cplx> download(int v) override { return vecs_[v]; }
  void copy(int dst, int src) override { vecs_[dst] = vecs_[src]; }
  void set_zero(int v) override { std::fill(vecs_[v].begin(), vecs_[v].end(), C(0)); }
  void matvec(int in, int out, bool hermitian, double* norm2_out) override {
    if (fast_)
      fast_->apply(vecs_[in].data(), vecs_[out].data(), hermitian);
    else
      exact_.apply(vecs_[in].data(), vecs_[out].data(), hermitian);
    ++matvecs_;
    if (norm2_out) *norm2_out = norm2(out);
  }
  void matvec_exact(int in, int out, bool hermitian, double* norm2_out) override {
    exact_.apply(vecs_[in].data(), vecs_[out].data(), hermitian);
    ++matvecs_;
    ++exact_matvecs_;
    if (norm2_out) *norm2_out = norm2(out);
  }
  bool matvec_is_approximate() const override { return fast_ != nullptr; }
  void use_exact_products() override { fast_.reset(); }  // its work arrays are borrowed: nothing else to free
  void lincomb(int dst, cplx a, int x, cplx b, int y, cplx c, int z, double* norm2_out) override {
    C* d = vecs_[dst].data();
    const C* px = vecs_[x].data();
    const C* py = vecs_[y].data();
    const C* pz = z >= 0 ? vecs_[z].data() : nullptr;
    double acc = 0;
    const long n = static_cast<long>(n_);
#pragma omp parallel for schedule(static) reduction(+ : acc) num_threads(threads_)
    for (long i = 0; i < n; ++i) {
      C v = a * px[i] + b * py[i];
      if (pz) v += c * pz[i];
      d[i] = v;
      acc += std::norm(v);
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
    for (long i = 0; i < n; ++i) acc += std::norm(p[i]);
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
  int exact_matvec_count() const override { return exact_matvecs_; }

 private:
  cplx dot(int x, int y, bool conj_x) {
    const C* px = vecs_[x].data();
    const C* py = vecs_[y].data();
    double re = 0, im = 0;
    const long n = static_cast<long>(n_);
#pragma omp parallel for schedule(static) reduction(+ : re, im) num_threads(threads_)
    for (long i = 0; i < n; ++i) {
      const cplx v = conj_x ? std::conj(px[i]) * py[i] : px[i] * py[i];
      re += v.real();
      im += v.imag();
    }
    return {re, im};
  }

  std::size_t n_;
  int threads_;
  CpuMatvec<double> exact_;
  std::unique_ptr<CpuMatvec<float>> fast_;  // single (mixed) precision: float FFTs
  std::vector<std::vector<C>> vecs_;
  std::vector<int> free_;
  int matvecs_ = 0, exact_matvecs_ = 0;
};

}  // namespace

std::unique_ptr<SolverBackend> make_cpu_backend(const MatrixSpec& spec, Precision precision) {
  return std::make_unique<CpuBackend>(spec, precision);
}

}  // namespace nanoscatter::dda
