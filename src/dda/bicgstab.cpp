// Bi-conjugate gradient stabilised (van der Vorst 1992; Templates book), as
// ADDA iterative.c BiCGStab, including its convergence test halfway through
// an iteration (saves the second product when s is already small enough;
// the driver then restarts it unless the true residual has converged).
#include <memory>

#include "dda/iterative.hpp"

namespace nanoscatter::dda {

namespace {

class Bicgstab final : public IterativeMethod {
 public:
  explicit Bicgstab(SolverBackend& be)
      : be_(be), p_(be.create()), v_(be.create()), s_(be.create()), t_(be.create()), rt_(be.create()) {}
  ~Bicgstab() override {
    for (int v : {p_, v_, s_, t_, rt_}) be_.release(v);
  }
  int stagnation_limit() const override { return 30000; }
  void init(int x, int r, double r2) override {
    x_ = x;
    r_ = r;
    best_ = r2;
    be_.copy(rt_, r);
  }
  double iterate(int niter, double target, bool* early) override {
    const cplx ro_new = be_.dot_c(rt_, r_);  // r·conj(r~)
    if (std::abs(ro_new) / best_ < 1e-16)
      throw BreakdownError{"Bi-CGSTAB breakdown: (r~.r)/(r.r) is too small"};
    if (niter == 1) {
      be_.copy(p_, r_);
    } else {
      const cplx t1 = ro_new * alpha_, t2 = ro_old_ * omega_;
      if (std::abs(t2) / std::abs(t1) < 1e-10) throw BreakdownError{"Bi-CGSTAB breakdown: 1/|beta| is too small"};
      const cplx beta = t1 / t2;
      be_.lincomb(p_, beta, p_, -beta * omega_, v_, 1.0, r_);  // p = beta (p − omega v) + r
    }
    be_.matvec(p_, v_, false);
    alpha_ = ro_new / be_.dot_c(rt_, v_);
    double s2 = 0;
    be_.lincomb(s_, 1.0, r_, -alpha_, v_, 0.0, -1, &s2);
    if (s2 < target) {
      be_.lincomb(x_, 1.0, x_, alpha_, p_);
      be_.copy(r_, s_);
      *early = true;
      return s2;
    }
    double t2n = 0;
    be_.matvec(s_, t_, false, &t2n);
    omega_ = be_.dot_c(t_, s_) / t2n;
    be_.lincomb(x_, 1.0, x_, alpha_, p_, omega_, s_);
    double r2 = 0;
    be_.lincomb(r_, 1.0, s_, -omega_, t_, 0.0, -1, &r2);
    ro_old_ = ro_new;
    if (r2 < best_) best_ = r2;
    return r2;
  }

 private:
  SolverBackend& be_;
  int p_, v_, s_, t_, rt_;
  int x_ = -1, r_ = -1;
  cplx ro_old_, alpha_, omega_;
  double best_ = 0;
};

}  // namespace

std::unique_ptr<IterativeMethod> make_bicgstab(SolverBackend& be) { return std::make_unique<Bicgstab>(be); }

}  // namespace nanoscatter::dda
