// Quasi-minimal residual method for complex-symmetric systems (Freund 1992,
// Algorithm 3.1), transcribed from ADDA iterative.c QMR_CS: Lanczos vectors
// v_k with the bilinear form v^T v, Givens rotations (c_k, s_k) and the
// three-term update of the search directions p_k.
#include <cmath>
#include <memory>
#include <utility>

#include "dda/iterative.hpp"

namespace nanoscatter::dda {

namespace {

class QmrCs final : public IterativeMethod {
 public:
  QmrCs(SolverBackend& be, double resid_scale)
      : be_(be), resid_scale_(resid_scale), v_(be.create()), vt_(be.create()), p_new_(be.create()),
        p_old_(be.create()), av_(be.create()) {}
  ~QmrCs() override {
    for (int v : {v_, vt_, p_new_, p_old_, av_}) be_.release(v);
  }
  int stagnation_limit() const override { return 50000; }
  void init(int x, int r, double r2) override {
    // A restart (refinement, iterative.cpp) starts from a residual far below
    // |b|: the breakdown bounds are then taken relative to it.
    if (inits_++ > 0) resid_scale_ = 1 / r2;
    x_ = x;
    r_ = r;
    omega_old_ = 0;
    cplx rr;
    double dummy;
    be_.dot_u_self_and_norm2(r, &rr, &dummy);
    beta_ = std::sqrt(rr);
    omega_new_ = std::sqrt(r2) / std::abs(beta_);
    be_.lincomb(v_, 1.0 / beta_, r, 0.0, r);
    tautilda_ = omega_new_ * beta_;
    c_new_ = c_old_ = 1;
    s_new_ = s_old_ = 0;
  }
  double iterate(int niter, double, bool*) override {
    // Bounds of (vT.v)/(b.b) as in ADDA: outside them the Lanczos process broke down.
    const double ratio = std::norm(beta_) * resid_scale_;
    if (ratio < 1e-10 || ratio > 1e20)
      throw BreakdownError{"QMR-CS breakdown: (vT.v)/(b.b) out of bounds (" + std::to_string(ratio) + ")"};
    be_.matvec(v_, av_, false);
    const cplx alpha = be_.dot_u(v_, av_);
    // v~_{k+1} = A v_k − alpha_k v_k − beta_k v_{k−1}   (vt_ holds v_{k−1})
    if (niter == 1)
      be_.lincomb(vt_, -alpha, v_, 1.0, av_);
    else
      be_.lincomb(vt_, -beta_, vt_, -alpha, v_, 1.0, av_);
    const cplx t3 = omega_old_ * beta_;
    const cplx theta = std::conj(s_old_) * t3;
    const cplx t4 = omega_new_ * alpha;
    const cplx eta = c_old_ * c_new_ * t3 + std::conj(s_new_) * t4;
    const cplx zetatilda = c_new_ * t4 - c_old_ * (s_new_ * t3);
    omega_old_ = omega_new_;
    cplx vv;
    double vt2;
    be_.dot_u_self_and_norm2(vt_, &vv, &vt2);
    beta_ = std::sqrt(vv);
    omega_new_ = std::sqrt(vt2) / std::abs(beta_);
    const double zt2 = std::norm(zetatilda);
    const double zetaabs = std::sqrt(zt2 + vt2);
    const double ztabs = std::sqrt(zt2);
    const cplx zeta = ztabs < 1e-40 ? cplx(zetaabs, 0) : zetatilda * (zetaabs / ztabs);
    c_old_ = c_new_;
    c_new_ = ztabs / zetaabs;
    s_old_ = s_new_;
    const cplx inv_zeta = 1.0 / zeta;
    s_new_ = omega_new_ * beta_ * inv_zeta;
    // p_k = (v_k − eta_k p_{k−1} − theta_k p_{k−2}) / zeta_k
    if (niter == 1) {
      be_.lincomb(p_new_, inv_zeta, v_, 0.0, v_);
    } else {
      const cplx m_eta = -eta * inv_zeta;
      if (niter == 2)
        be_.lincomb(p_old_, m_eta, p_new_, inv_zeta, v_);
      else
        be_.lincomb(p_old_, -theta * inv_zeta, p_old_, m_eta, p_new_, inv_zeta, v_);
      std::swap(p_old_, p_new_);
    }
    const cplx tau = c_new_ * tautilda_;
    tautilda_ = -s_new_ * tautilda_;
    be_.lincomb(x_, 1.0, x_, tau, p_new_);
    be_.lincomb(vt_, 1.0 / beta_, vt_, 0.0, vt_);
    std::swap(v_, vt_);
    double r2 = 0;
    be_.lincomb(r_, std::norm(s_new_), r_, c_new_ * tautilda_ / omega_new_, v_, 0.0, -1, &r2);
    return r2;
  }

 private:
  SolverBackend& be_;
  double resid_scale_;
  int inits_ = 0;
  int v_, vt_, p_new_, p_old_, av_;
  int x_ = -1, r_ = -1;
  double omega_old_ = 0, omega_new_ = 0, c_old_ = 1, c_new_ = 1;
  cplx beta_, tautilda_, s_old_, s_new_;
};

}  // namespace

std::unique_ptr<IterativeMethod> make_qmr_cs(SolverBackend& be, double resid_scale) {
  return std::make_unique<QmrCs>(be, resid_scale);
}

}  // namespace nanoscatter::dda
