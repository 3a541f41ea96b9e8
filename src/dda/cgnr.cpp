// Conjugate gradient on the normal equations, minimising the residual norm
// (CGNR, Templates book), as ADDA iterative.c CGNR; needs A^H, which for the
// complex-symmetric DDA matrix is conj(A conj(y)).
#include <memory>

#include "dda/iterative.hpp"

namespace nanoscatter::dda {

namespace {

class Cgnr final : public IterativeMethod {
 public:
  explicit Cgnr(SolverBackend& be) : be_(be), p_(be.create()), w_(be.create()) {}
  ~Cgnr() override {
    for (int v : {p_, w_}) be_.release(v);
  }
  int stagnation_limit() const override { return 10; }
  void init(int x, int r, double) override {
    x_ = x;
    r_ = r;
  }
  double iterate(int niter, double, bool*) override {
    double ro_new = 0;
    if (niter == 1) {
      be_.matvec(r_, p_, true, &ro_new);  // p_1 = A^H r_0
    } else {
      be_.matvec(r_, w_, true, &ro_new);
      be_.lincomb(p_, ro_new / ro_old_, p_, 1.0, w_);
    }
    double denom = 0;
    be_.matvec(p_, w_, false, &denom);
    const double alpha = ro_new / denom;
    be_.lincomb(x_, 1.0, x_, alpha, p_);
    double r2 = 0;
    be_.lincomb(r_, 1.0, r_, -alpha, w_, 0.0, -1, &r2);
    ro_old_ = ro_new;
    return r2;
  }

 private:
  SolverBackend& be_;
  int p_, w_;
  int x_ = -1, r_ = -1;
  double ro_old_ = 0;
};

}  // namespace

std::unique_ptr<IterativeMethod> make_cgnr(SolverBackend& be) { return std::make_unique<Cgnr>(be); }

}  // namespace nanoscatter::dda
