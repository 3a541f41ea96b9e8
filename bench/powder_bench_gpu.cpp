// Powder-model evaluations on the GPU (issue 23's speed targets): a CoO
// sphere of ~10⁵ atoms (R = 62.5 Å), 3000 observed 2θ points (10–100°,
// 0.03°), Cu Kα doublet, pseudo-Voigt. "new_epsilon": the lattice
// expansion changes, so the pair sums are redone on the fine grid (both
// wavelengths) and the instrument applied; "new_b_profile": B and the
// profile change, the sums are kept. The histograms are made once, before
// the timed loop (the first evaluation's cost: `first`). "fit5": a
// five-parameter fit (ε, B of Co and O, W, scale in closed form, plus a
// two-term background) of that particle's Poisson-noised pattern from a
// start 0.3 % off in ε and 30 % off in B and W. Run by
// bench/gpu_suite.sh; results in bench/results/.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <random>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/fit_powder.hpp"
#include "nanoscatter/powder_model.hpp"
#include "nanoscatter/stopwatch.hpp"

using namespace nanoscatter;

namespace {

Structure coo_sphere() {
  LatticeOptions l;
  l.type = LatticeType::rocksalt, l.a = 4.26, l.elements = {"Co", "O"};
  return cut_crystal(make_lattice(l), Sphere{62.5});
}

// The benchmark's pattern of coo_sphere() on the GPU: 3000 points 10–100°, Cu Kα doublet.
PowderPattern make_pattern(const PowderModelOptions& powder = {}) {
  DebyeOptions o;
  o.compute.device = Device::gpu;
  o.compute.quiet = true;
  PowderInstrument in;
  in.wavelength2 = 1.544390;
  std::vector<double> two_theta;
  for (int k = 0; k < 3000; ++k) two_theta.push_back(10 + 0.03 * k);
  return PowderPattern(PowderModel(coo_sphere(), o, powder), in, two_theta);
}

PowderPattern& pattern() {
  static PowderPattern p = make_pattern();
  return p;
}

void first(benchmark::State& state) {
  for (auto _ : state) {
    PowderPattern p = make_pattern();
    PowderParameters pp = p.model().default_parameters();
    InstrumentParameters ip;
    benchmark::DoNotOptimize(p.evaluate(pp, ip));
    state.counters["atoms"] = double(coo_sphere().atoms.size());
  }
}

void new_epsilon(benchmark::State& state) {
  PowderPattern& p = pattern();
  PowderParameters pp = p.model().default_parameters();
  InstrumentParameters ip;
  ip.u = 0.004, ip.w = 0.003, ip.eta = 0.4;
  double eps = 0;
  for (auto _ : state) {
    pp.lattice_expansion = (eps += 1e-5);
    benchmark::DoNotOptimize(p.evaluate(pp, ip));
  }
  state.counters["fine_points"] = double(p.fine_grid().size());
}

void new_b_profile(benchmark::State& state) {
  PowderPattern& p = pattern();
  PowderParameters pp = p.model().default_parameters();
  InstrumentParameters ip;
  ip.u = 0.004, ip.w = 0.003, ip.eta = 0.4;
  for (auto _ : state) {
    for (double& b : pp.b) b += 1e-4;
    ip.w += 1e-6;
    benchmark::DoNotOptimize(p.evaluate(pp, ip));
  }
}

void fit5(benchmark::State& state) {
  PowderPattern& p = pattern();
  PowderParameters truth = p.model().default_parameters();
  truth.lattice_expansion = 0.004;
  truth.b = std::vector<double>(truth.b.size(), 0.6);
  InstrumentParameters ip;
  ip.u = 0.004, ip.w = 0.003, ip.eta = 0.4, ip.background = {0.2, -0.05};
  const std::vector<double> clean = p.evaluate(truth, ip);
  double hi = 0;
  for (double v : clean) hi = std::max(hi, v);
  std::mt19937_64 rng(2026);
  fit::FitData data;
  data.rows = 1, data.cols = clean.size();
  for (double v : clean) {
    const double counts = double(std::poisson_distribution<long>(1e5 * v / hi)(rng));
    data.values.push_back(counts), data.sigma.push_back(std::sqrt(std::max(counts, 1.0))), data.use.push_back(1);
  }
  const auto param = [](const char* name, double start, double lo, double up) {
    fit::Parameter q;
    q.name = name, q.start = start, q.min = lo, q.max = up;
    return q;
  };
  fit::Parameter tied = param("b[O]", 0.6, 0, 5);
  tied.tie = "b[Co]";
  const std::vector<fit::Parameter> parameters{param("lattice_expansion", 0.001, -0.02, 0.02),
                                               param("b[Co]", 0.8, 0, 5), tied, param("w", 0.004, 0, 0.05),
                                               param("bkg[0]", 0.1, -10, 10), param("bkg[1]", 0.0, -10, 10)};
  fit::ObjectiveOptions chi2;
  chi2.kind = fit::ObjectiveKind::chi2;
  chi2.background = fit::LinearMode::none;
  fit::MinimizerOptions lm;
  lm.quiet = true;
  for (auto _ : state) {
    fit::PowderFitModel model(p, 2);
    model.set("u", 0.004), model.set("eta", 0.4);
    const fit::FitResult r = fit::run_fit(model, parameters, data, chi2, lm);
    state.counters["evaluations"] = r.evaluations;
    state.counters["iterations"] = r.iterations;
    state.counters["converged"] = r.converged;
    state.counters["eps"] = r.value("lattice_expansion");
    state.counters["chi2_red"] = r.chi2_reduced;
  }
}

// A log-normal size distribution over 15 nested spheres of the same
// lattice, radii 25–62.5 Å (the largest the 105,759-atom particle; the
// shells are histogrammed on the CPU, once): one evaluation when the
// median moves (the ensemble's histogram recombined, its sums on the GPU,
// the instrument). Issue 23's target: ≤ 0.5 s per evaluation.
void size15(benchmark::State& state) {
  static PowderPattern p = [] {
    PowderModelOptions po;
    po.size = SizeDistributionOptions{25.0, 62.5, 15};
    const Stopwatch t;
    PowderPattern made = make_pattern(po);
    std::fprintf(stderr, "size15: model (shell histograms) %.2f s\n", t.seconds());
    return made;
  }();
  PowderParameters pp = p.model().default_parameters();
  pp.size_median = 40, pp.size_sigma = 0.2;
  InstrumentParameters ip;
  ip.u = 0.004, ip.w = 0.003, ip.eta = 0.4;
  for (auto _ : state) {
    pp.size_median += 1e-3;
    benchmark::DoNotOptimize(p.evaluate(pp, ip));
  }
}

}  // namespace

BENCHMARK(size15)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(fit5)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(first)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(new_epsilon)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(new_b_profile)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_MAIN();
