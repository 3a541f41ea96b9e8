// Iterative solvers of ADDA (iterative.c): QMR-CS (default) and BiCG-CS after
// Freund, SIAM J. Sci. Stat. Comput. 13, 425 (1992); Bi-CGSTAB and CGNR after
// the Templates book (Barrett et al. 1994). The common driver is ADDA's:
//   b = S E_inc; x_0 = 0 or x_0 = b, whichever has the smaller residual;
//   stop after maxiter iterations, or after a method-specific number of
//   iterations without a new smallest residual (ADDA's stagnation counter);
// but it converges on the true residual, not the recursively updated one:
// when |r_k| ≤ target (first eps |b|), it computes t = b − A x_k with the
// float64 product (matvec_exact) and stops when |t| ≤ eps |b|. Otherwise, when
// the recursion still tracks t (|t − r_k| ≤ eps|b|/2), it iterates on to a
// lower target; when it does not (float32 products in single precision), it
// restarts the method from x_k with r = t: iterative refinement, each cycle
// solving for the correction with the fast product, its residual computed in
// float64. In double precision the first check almost always passes (one
// extra product per solve). A refinement cycle that fails (the true residual
// falls by less than 10%, or the cycle runs 3× as long as the first one)
// switches single precision to float64 products for the rest of the solve,
// so that it converges wherever double does; three failed cycles after that
// end the solve as not converged.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "dda/solver_backend.hpp"
#include "nanoscatter/dda.hpp"

namespace nanoscatter::dda {

struct SolveControl {
  double eps = 1e-5;
  int maxiter = 1000;
  // Called after every iteration with (iteration, relative residual).
  std::function<void(int, double)> on_iteration;
  // Called after every true-residual check with (iteration, true relative
  // residual, relative drift |t − r|/|b|, whether the method restarts).
  std::function<void(int, double, double, bool)> on_check;
};

struct SolveReport {
  int iterations = 0;
  bool converged = false;
  double residual = 0;               // final true relative residual |b − A x|/|b| (float64 product)
  std::vector<double> history;       // |r_k|/|b| for k = 0..iterations
  std::string initial_field;         // "x_0 = 0" or "x_0 = E_inc"
  int residual_checks = 0;           // true residuals computed at the convergence test
  int restarts = 0;                  // refinement restarts from the true residual
  bool float64_fallback = false;     // a failed float32 refinement cycle switched to float64 products
  std::string failure;               // why it stopped without converging ("" when converged)
  double seconds = 0;                // wall time of the iterations (initial residual included)
};

// Per-method state machine driven by solve().
class IterativeMethod {
 public:
  virtual ~IterativeMethod() = default;
  // Iterations without a new smallest residual that ADDA tolerates.
  virtual int stagnation_limit() const = 0;
  // Called with x, r (= b − A x) and |r|²; again, with the same handles, at
  // every restart (the method forgets its previous state).
  virtual void init(int x, int r, double r_norm2) = 0;
  // One iteration: updates x, r; returns |r|². Sets `early` when |r|² fell
  // below `target` in the middle of the iteration (Bi-CGSTAB; the method then
  // needs init() before it can iterate again). Throws
  // BreakdownError on a breakdown.
  virtual double iterate(int niter, double target, bool* early) = 0;
};

struct BreakdownError {
  std::string what;
};

std::unique_ptr<IterativeMethod> make_qmr_cs(SolverBackend& be);
std::unique_ptr<IterativeMethod> make_bicg_cs(SolverBackend& be);
std::unique_ptr<IterativeMethod> make_bicgstab(SolverBackend& be);
std::unique_ptr<IterativeMethod> make_cgnr(SolverBackend& be);

// Solves A x = b for the vector handle b; x receives the solution.
SolveReport solve(DdaSolver method, SolverBackend& be, int b, int x, const SolveControl& control);

}  // namespace nanoscatter::dda
