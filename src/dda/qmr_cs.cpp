// Quasi-minimal residual method for complex-symmetric systems (Freund 1992,
// Algorithm 3.1), transcribed from ADDA iterative.c QMR_CS: Lanczos vectors
// v_k with the bilinear form v^T v, Givens rotations (c_k, s_k) and the
// three-term update of the search directions p_k. The breakdown test is
// ADDA's scale-invariant one (ADDA issue 162, adda-team/adda commit 31fe7db, 2013): |v~^T v~|/|v~|² =
// 1/omega² falls towards 0 when the Lanczos process breaks down, whatever
// the units of length. The earlier test, |beta|²/|b|², scales as 1/d³ (b =
// S E_inc, S² = alpha ∝ d³): in nanometres it "broke down" in the second
// iteration of a healthy solve (polystyrene sphere, radius 400 nm, 660 nm).
#include <cmath>
#include <memory>
#include <utility>

#include "dda/iterative.hpp"

namespace nanoscatter::dda {

namespace {

// ADDA's EPS1 for |vT.v|/(v.v).
constexpr double kBreakdown = 1e-10;

class QmrCs final : public IterativeMethod {
 public:
  explicit QmrCs(SolverBackend& be)
      : be_(be), v_(be.create()), vt_(be.create()), p_new_(be.create()),
        p_old_(be.create()), av_(be.create()) {}
  ~QmrCs() override {
    for (int v : {v_, vt_, p_new_, p_old_, av_}) be_.release(v);
  }
  int stagnation_limit() const override { return 50000; }
  void init(int x, int r, double r2) override {
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
    const double ratio = 1 / (omega_new_ * omega_new_);
    if (ratio < kBreakdown)
      throw BreakdownError{"QMR-CS breakdown: |vT.v|/(v.v) is too small (" + std::to_string(ratio) + ")"};
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
  int v_, vt_, p_new_, p_old_, av_;
  int x_ = -1, r_ = -1;
  double omega_old_ = 0, omega_new_ = 0, c_old_ = 1, c_new_ = 1;
  cplx beta_, tautilda_, s_old_, s_new_;
};

}  // namespace

std::unique_ptr<IterativeMethod> make_qmr_cs(SolverBackend& be) {
  return std::make_unique<QmrCs>(be);
}

}  // namespace nanoscatter::dda
