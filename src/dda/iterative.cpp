// Common driver of the iterative solvers (ADDA iterative.c IterativeSolver,
// CalcInitField with IF_AUTO and ProgressReport).
#include "dda/iterative.hpp"

#include <chrono>
#include <cmath>
#include <memory>

#include "nanoscatter/error.hpp"

namespace nanoscatter::dda {

SolveReport solve(DdaSolver method, SolverBackend& be, int b, int x, const SolveControl& control) {
  SolveReport rep;
  const auto t0 = std::chrono::steady_clock::now();
  const int r = be.create();
  const double b2 = be.norm2(b);
  if (!(b2 > 0)) fail("DDA solver: the right-hand side is zero");
  const double resid_scale = 1 / b2;
  const double eps_b2 = control.eps * control.eps * b2;
  // x_0 = b: r_0 = b − A b; keep it when |r_0| < |b| (ADDA IF_AUTO)
  double r2 = 0;
  be.matvec(b, r, false);
  be.lincomb(r, 1.0, b, -1.0, r, 0.0, -1, &r2);
  if (b2 < r2) {
    be.set_zero(x);
    be.copy(r, b);
    r2 = b2;
    rep.initial_field = "x_0 = 0";
  } else {
    be.copy(x, b);
    rep.initial_field = "x_0 = E_inc";
  }
  std::unique_ptr<IterativeMethod> m;
  switch (method) {
    case DdaSolver::qmr_cs: m = make_qmr_cs(be, resid_scale); break;
    case DdaSolver::bicg_cs: m = make_bicg_cs(be); break;
    case DdaSolver::bicgstab: m = make_bicgstab(be); break;
    case DdaSolver::cgnr: m = make_cgnr(be); break;
  }
  m->init(x, r, r2);
  double best = r2;  // ADDA's inprodR: the smallest squared residual so far
  rep.history.push_back(std::sqrt(r2 * resid_scale));
  int niter = 1, counter = 0;
  while (best > eps_b2 && niter <= control.maxiter && counter <= m->stagnation_limit()) {
    bool early = false;
    double now = 0;
    try {
      now = m->iterate(niter, eps_b2, &early);
    } catch (const BreakdownError& e) {
      rep.failure = e.what;
      break;
    }
    if (!std::isfinite(now)) {
      rep.failure = "the residual is not finite";
      break;
    }
    if (now <= best) {
      best = now;
      counter = 0;
    } else {
      ++counter;
    }
    rep.history.push_back(std::sqrt(now * resid_scale));
    if (control.on_iteration) control.on_iteration(niter, rep.history.back());
    ++niter;
    if (early) break;
  }
  rep.iterations = niter - 1;
  be.release(r);
  be.norm2(x);  // waits for the device before the clock stops
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rep.residual = rep.history.back();
  rep.converged = best <= eps_b2 && rep.failure.empty();
  if (!rep.converged && rep.failure.empty()) {
    if (rep.iterations >= control.maxiter)
      rep.failure = "no convergence within the maximum number of iterations (" +
                    std::to_string(control.maxiter) + ")";
    else
      rep.failure = "the residual did not decrease for " + std::to_string(m->stagnation_limit()) +
                    " iterations";
  }
  return rep;
}

}  // namespace nanoscatter::dda
