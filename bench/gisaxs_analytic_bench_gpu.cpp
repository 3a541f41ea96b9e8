// Issue 22's speed targets for fitting, GPU against CPU on the same machine:
//   Issue22Image: a 1024 × 1024 angular detector (φ_f ∈ [−2°, 2°],
//     α_f ∈ [0°, 2°], λ = 0.1 nm, α_i = 0.2°), spheres R = 5 nm with a
//     20-point log-normal radius distribution (s = 0.2), a radial
//     paracrystal (D = 20 nm, ω = 3 nm, Λ = 1 µm, κ = 1) with the SSCA, DWBA
//     on a substrate. Target: ≤ 0.05 s per image on one H100 (GPU path) and
//     the CPU path ≥ 3× BornAgain 1.19 single-threaded.
//     Axes: device (0 CPU, 1 GPU), precision (0 float64, 1 float32 form
//     factors), CPU threads (0 = all; GPU runs ignore it).
//   Galaxi: examples/gisaxs/galaxi.toml (204 × 129 flat-detector region,
//     Ag spheres, 20 log-normal radii, SSCA, three-layer stack), per model
//     evaluation as a fit makes one: `mode` 0 = execute() of one plan,
//     1 = set_layouts() with a new radius then execute() (the fit's step),
//     2 = a fresh plan then execute(). Target: 30–60 evaluations ≤ 5 s.
// Time per image is the benchmark's time (ms); `throughput` counts form
// factor evaluations (pixels × kinds × DWBA terms) per second.
//   build/bench/gisaxs_analytic_bench_gpu                  (all)
//   build/bench/gisaxs_analytic_bench_gpu --benchmark_filter='Issue22Image/device:1'
// Without a GPU the GPU cases report "no CUDA device" and the CPU cases run.
#include <benchmark/benchmark.h>

#include <string>

#include "nanoscatter/device.hpp"
#include "nanoscatter/gisaxs.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

constexpr int kDwbaTerms = 4;

const char* kIssue22Sample = R"(
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
phi_f = { min = -2.0, max = 2.0, bins = 1024 }
alpha_f = { min = 0.0, max = 2.0, bins = 1024 }
[[layer]]
[[layer]]
material = { delta = 6e-6, beta = 2e-8 }
[[layout]]
density = 0.0025
mixture = "ssca"
[[layout.particle]]
shape = "sphere"
radius = 5.0
material = { delta = 6e-4, beta = 2e-8 }
distribution = { parameter = "radius", type = "lognormal", scale = 0.2, samples = 20, sigma_factor = 2 }
[layout.interference]
type = "radial_paracrystal"
peak_distance = 20.0
damping_length = 1000.0
size_spacing_coupling = 1.0
pdf = { type = "gauss", omega = 3.0 }
)";

bool configure(benchmark::State& state, GisaxsOptions& o, int device, int precision, int threads) {
  if (device == 1 && cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return false;
  }
  o.compute.device = device == 1 ? Device::gpu : Device::cpu;
  o.compute.precision = precision == 1 ? Precision::float32 : Precision::float64;
  o.compute.threads = threads;
  return true;
}

void report(benchmark::State& state, const GisaxsPlan& plan, const std::string& label) {
  const double work = double(plan.pixels().size()) * double(plan.particle_kinds()) * kDwbaTerms;
  state.counters["throughput"] = benchmark::Counter(work * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel("gisaxs|" + label + "|form factor/s");
}

void Issue22Image(benchmark::State& state) {
  GisaxsOptions o;
  if (!configure(state, o, int(state.range(0)), int(state.range(1)), int(state.range(2)))) return;
  const GisaxsPlan plan(parse_sample(kIssue22Sample, "issue22.toml"), o);
  double checksum = 0;
  for (auto _ : state) {
    const GisaxsResult r = plan.execute();
    checksum += r.intensity[r.intensity.size() / 2];
    benchmark::DoNotOptimize(checksum);
  }
  report(state, plan, std::string("issue22 1024² spheres×20 ssca ") + (state.range(0) ? "gpu" : "cpu") +
                          (state.range(1) ? " f32" : " f64"));
}

void Galaxi(benchmark::State& state) {
  GisaxsOptions o;
  if (!configure(state, o, int(state.range(0)), int(state.range(1)), 0)) return;
  const Sample sample = read_sample(std::string(NS_SOURCE_DIR) + "/examples/gisaxs/galaxi.toml");
  GisaxsPlan plan(sample, o);
  const int mode = int(state.range(2));
  double checksum = 0, radius = 5.0;
  for (auto _ : state) {
    // A fit's step: a slightly different radius each evaluation.
    radius = radius < 5.5 ? radius + 0.01 : 4.5;
    if (mode == 1) {
      std::vector<Layout> layouts = sample.layouts;
      layouts[0].particles[0].parameters[0] = radius;
      plan.set_layouts(std::move(layouts));
    } else if (mode == 2) {
      plan = GisaxsPlan(sample, o);
    }
    const GisaxsResult r = plan.execute();
    checksum += r.intensity[r.intensity.size() / 2];
    benchmark::DoNotOptimize(checksum);
  }
  report(state, plan, std::string("galaxi 204×129 mode ") + std::to_string(mode) + (state.range(0) ? " gpu" : " cpu") +
                          (state.range(1) ? " f32" : " f64"));
}

BENCHMARK(Issue22Image)
    ->ArgNames({"device", "precision", "threads"})
    ->Args({1, 0, 0})
    ->Args({1, 1, 0})
    ->Args({0, 0, 0})
    ->Args({0, 0, 1})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(Galaxi)
    ->ArgNames({"device", "precision", "mode"})
    ->ArgsProduct({{1, 0}, {0, 1}, {0, 1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
