// Bi-conjugate gradient for complex-symmetric systems (COCG: van der Vorst &
// Melissen, IEEE Trans. Magn. 26, 706 (1990)), as ADDA iterative.c BiCG_CS.
#include <memory>

#include "dda/iterative.hpp"

namespace nanoscatter::dda {

namespace {

class BicgCs final : public IterativeMethod {
 public:
  explicit BicgCs(SolverBackend& be) : be_(be), p_(be.create()), q_(be.create()) {}
  ~BicgCs() override {
    for (int v : {p_, q_}) be_.release(v);
  }
  int stagnation_limit() const override { return 50000; }
  void init(int x, int r, double r2) override {
    x_ = x;
    r_ = r;
    best_ = r2;
  }
  double iterate(int niter, double, bool*) override {
    // ADDA's bounds on (rT.r)/(r.r) and (pT.A.p)/(rT.r)
    cplx ro_new;
    double r2;
    be_.dot_u_self_and_norm2(r_, &ro_new, &r2);
    const double ratio = std::abs(ro_new) / best_;
    if (ratio < 1e-10 || ratio > 1e10)
      throw BreakdownError{"BiCG-CS breakdown: (rT.r)/(r.r) out of bounds (" + std::to_string(ratio) + ")"};
    if (niter == 1)
      be_.copy(p_, r_);
    else
      be_.lincomb(p_, ro_new / ro_old_, p_, 1.0, r_);
    be_.matvec(p_, q_, false);
    const cplx mu = be_.dot_u(p_, q_);
    if (std::abs(mu) / std::abs(ro_new) < 1e-10)
      throw BreakdownError{"BiCG-CS breakdown: (pT.A.p)/(rT.r) is too small"};
    const cplx alpha = ro_new / mu;
    be_.lincomb(x_, 1.0, x_, alpha, p_);
    double rn2 = 0;
    be_.lincomb(r_, 1.0, r_, -alpha, q_, 0.0, -1, &rn2);
    ro_old_ = ro_new;
    if (rn2 < best_) best_ = rn2;
    return rn2;
  }

 private:
  SolverBackend& be_;
  int p_, q_;
  int x_ = -1, r_ = -1;
  cplx ro_old_;
  double best_ = 0;  // ADDA's inprodR (smallest |r|² so far) for the breakdown test
};

}  // namespace

std::unique_ptr<IterativeMethod> make_bicg_cs(SolverBackend& be) { return std::make_unique<BicgCs>(be); }

}  // namespace nanoscatter::dda
