// Iterative solvers of ADDA (iterative.c): QMR-CS (default) and BiCG-CS after
// Freund, SIAM J. Sci. Stat. Comput. 13, 425 (1992); Bi-CGSTAB and CGNR after
// the Templates book (Barrett et al. 1994). The common driver is ADDA's:
//   b = S E_inc; x_0 = 0 or x_0 = b, whichever has the smaller residual;
//   stop when the smallest |r_k| so far satisfies |r_k| ≤ eps |b|, after
//   maxiter iterations, or after a method-specific number of iterations
//   without a new smallest residual (ADDA's stagnation counter).
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
};

struct SolveReport {
  int iterations = 0;
  bool converged = false;
  double residual = 0;               // final relative residual |r|/|b|
  std::vector<double> history;       // |r_k|/|b| for k = 0..iterations
  std::string initial_field;         // "x_0 = 0" or "x_0 = E_inc"
  std::string failure;               // why it stopped without converging ("" when converged)
  double seconds = 0;                // wall time of the iterations (initial residual included)
};

// Per-method state machine driven by solve().
class IterativeMethod {
 public:
  virtual ~IterativeMethod() = default;
  // Iterations without a new smallest residual that ADDA tolerates.
  virtual int stagnation_limit() const = 0;
  // Called once with x, r (= b − A x) and |r|².
  virtual void init(int x, int r, double r_norm2) = 0;
  // One iteration: updates x, r; returns |r|². Sets `early` when it already
  // converged in the middle of the iteration (Bi-CGSTAB). Throws
  // BreakdownError on a breakdown.
  virtual double iterate(int niter, double eps_b2, bool* early) = 0;
};

struct BreakdownError {
  std::string what;
};

std::unique_ptr<IterativeMethod> make_qmr_cs(SolverBackend& be, double resid_scale);
std::unique_ptr<IterativeMethod> make_bicg_cs(SolverBackend& be);
std::unique_ptr<IterativeMethod> make_bicgstab(SolverBackend& be);
std::unique_ptr<IterativeMethod> make_cgnr(SolverBackend& be);

// Solves A x = b for the vector handle b; x receives the solution.
SolveReport solve(DdaSolver method, SolverBackend& be, int b, int x, const SolveControl& control);

}  // namespace nanoscatter::dda
