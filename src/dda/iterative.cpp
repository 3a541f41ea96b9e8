// Common driver of the iterative solvers (ADDA iterative.c IterativeSolver,
// CalcInitField with IF_AUTO and ProgressReport), with the convergence test
// on the true residual and the refinement restarts of iterative.hpp.
#include "dda/iterative.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "nanoscatter/error.hpp"
#include "nanoscatter/stopwatch.hpp"

namespace nanoscatter::dda {

namespace {

// A refinement cycle that does not lower the true residual below this
// fraction (squared) of its value at the cycle's start makes no progress;
// after kFutileLimit such cycles in a row the solve gives up.
constexpr double kProgress2 = 0.81;
constexpr int kFutileLimit = 3;
// Fewest iterations between two intermediate true-residual checks (each
// costs a float64 product, about two float32 ones).
constexpr int kCheckSpacing = 50;

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

}  // namespace

SolveReport solve(DdaSolver method, SolverBackend& be, int b, int x, const SolveControl& control) {
  SolveReport rep;
  const Stopwatch t0;
  const int r = be.create(), t = be.create();
  const double b2 = be.norm2(b);
  if (!(b2 > 0)) fail("DDA solver: the right-hand side is zero");
  const double resid_scale = 1 / b2;
  const double eps_b2 = control.eps * control.eps * b2;
  // x_0 = b: r_0 = b − A b (float64 product); keep it when |r_0| < |b| (ADDA IF_AUTO)
  double r2 = 0;
  be.matvec_exact(b, r, false);
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
    case DdaSolver::qmr_cs: m = make_qmr_cs(be); break;
    case DdaSolver::bicg_cs: m = make_bicg_cs(be); break;
    case DdaSolver::bicgstab: m = make_bicgstab(be); break;
    case DdaSolver::cgnr: m = make_cgnr(be); break;
  }
  m->init(x, r, r2);
  double best = r2;          // ADDA's inprodR: the smallest recursive |r|² of this cycle
  double target = eps_b2;    // recursive |r|² at which the true residual is checked
  double true2 = r2;         // the latest true |b − A x|²
  double cycle_start = r2;   // the true |r|² this refinement cycle started from
  bool converged = r2 <= eps_b2;
  int futile = 0;
  bool approximate = be.matvec_is_approximate();
  double next_check = 0.1 * r2;  // intermediate checks (float32 products only)
  int last_check = 0;
  int first_cycle = 0, cycle_begin = 0;  // iterations of the first cycle; start of the current one
  rep.history.push_back(std::sqrt(r2 * resid_scale));
  int niter = 1, counter = 0;
  while (!converged && niter <= control.maxiter && counter <= m->stagnation_limit()) {
    bool early = false;
    double now = 0;
    try {
      now = m->iterate(niter, target, &early);
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
    // A refinement cycle three times as long as the first one (at least 300)
    // without reaching its target is checked and counts as failed.
    const bool overlong = rep.restarts > 0 && niter - cycle_begin > std::max(3 * first_cycle, 300);
    const bool final_check = now <= target || early || overlong;
    if (!final_check) {
      // With float32 products the recursion drifts from the true residual; a
      // check at every 10× fall of |r|² (at most every kCheckSpacing
      // iterations) restarts as soon as the drift dominates, instead of
      // iterating on while the true residual no longer falls.
      if (!approximate || now > next_check) continue;
      next_check = 0.1 * now;
      if (niter - last_check < kCheckSpacing) continue;
    }
    // The true residual t = b − A x (float64 product).
    be.matvec_exact(x, t, false);
    be.lincomb(t, 1.0, b, -1.0, t, 0.0, -1, &true2);
    ++rep.residual_checks;
    last_check = niter;
    if (true2 <= eps_b2) {
      converged = true;
      break;
    }
    // |t − r|², the drift of the recursive residual from the true one
    const double gap2 = std::max(0.0, true2 + now - 2 * be.dot_c(t, r).real());
    auto report = [&](bool restart) {
      if (control.on_check)
        control.on_check(niter - 1, std::sqrt(true2 * resid_scale), std::sqrt(gap2 * resid_scale), restart);
    };
    if (!final_check) {
      if (gap2 < 0.25 * now) {  // the recursion still leads the true residual down
        report(false);
        continue;
      }
    } else if (!early && !overlong && gap2 <= 0.25 * eps_b2) {
      // The recursion still tracks the true residual: iterate on, aiming below
      // eps |b| by the drift (with a margin for its growth).
      const double e = std::sqrt(eps_b2) - std::sqrt(gap2);
      target = std::min(0.81 * target, 0.81 * e * e);
      report(false);
      continue;
    }
    report(true);
    // Refinement restart: the method starts again from x with r = t. A cycle
    // that did not lower the true residual by 10% failed; with float32
    // products the first failure switches to float64 products (the solve then
    // converges wherever double does), later ones count towards giving up.
    const bool failed = overlong || true2 > kProgress2 * cycle_start;
    if (failed && approximate && !rep.float64_fallback) {
      be.use_exact_products();
      approximate = false;
      rep.float64_fallback = true;
    } else {
      futile = failed ? futile + 1 : 0;
    }
    if (futile >= kFutileLimit) {
      rep.failure = "the true (float64) residual stays at " + fmt(std::sqrt(true2 * resid_scale)) + " after " +
                    std::to_string(rep.restarts) + " restarts";
      break;
    }
    if (rep.restarts == 0) first_cycle = niter - 1;
    ++rep.restarts;
    cycle_begin = niter - 1;
    be.copy(r, t);
    m->init(x, r, true2);
    best = cycle_start = true2;
    counter = 0;
    target = eps_b2;
    next_check = 0.1 * true2;
  }
  rep.iterations = niter - 1;
  if (!converged && rep.iterations > 0) {
    // the reported residual of an unconverged run is the true one of its last x
    be.matvec_exact(x, t, false);
    be.lincomb(t, 1.0, b, -1.0, t, 0.0, -1, &true2);
  }
  be.release(r);
  be.release(t);
  be.norm2(x);  // waits for the device before the clock stops
  rep.seconds = t0.seconds();
  rep.residual = std::sqrt(true2 * resid_scale);
  rep.converged = converged;
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
