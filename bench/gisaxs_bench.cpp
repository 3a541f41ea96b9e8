// CPU throughput of the gisaxs engine in detector pixels per second.
// The sample is issue 5's benchmark (cylinders R = H = 5 nm on a substrate,
// DWBA, λ = 0.1 nm, α_i = 0.2°, φ_f ∈ [−2°, 2°], α_f ∈ [0°, 3°]) on N × N
// pixels; axes: N, OpenMP threads (0 = all), and the particle shape
// (cylinder: closed form; icosahedron: the general polyhedron, 20 faces).
// Plan construction is outside the timed loop (it is O(layers + particles)).
//   build-gisaxs/bench/gisaxs_bench --benchmark_filter='Cylinder/1024'
#include <benchmark/benchmark.h>

#include <string>

#include "nanoscatter/gisaxs.hpp"

namespace {

using namespace nanoscatter::gisaxs;

std::string sample_text(int n, const std::string& particle) {
  return "density = 0.01\n[beam]\nwavelength = 0.1\nalpha_i = 0.2\n[detector]\n"
         "phi_f = { min = -2.0, max = 2.0, bins = " + std::to_string(n) + " }\n"
         "alpha_f = { min = 0.0, max = 3.0, bins = " + std::to_string(n) + " }\n"
         "[[layer]]\n[[layer]]\nmaterial = { delta = 6e-6, beta = 2e-8 }\n"
         "[[particle]]\n" + particle + "material = { delta = 6e-4, beta = 2e-8 }\n";
}

void run(benchmark::State& state, const std::string& particle) {
  const int n = static_cast<int>(state.range(0));
  GisaxsOptions options;
  options.compute.threads = static_cast<int>(state.range(1));
  const GisaxsPlan plan(parse_sample(sample_text(n, particle), "bench.toml"), options);
  double checksum = 0;
  for (auto _ : state) {
    const GisaxsResult r = plan.execute();
    checksum += r.intensity[r.intensity.size() / 2];
    benchmark::DoNotOptimize(checksum);
  }
  state.counters["pixels_per_second"] =
      benchmark::Counter(double(n) * n * state.iterations(), benchmark::Counter::kIsRate);
}

void Cylinder(benchmark::State& state) { run(state, "shape = \"cylinder\"\nradius = 5\nheight = 5\n"); }
void Icosahedron(benchmark::State& state) { run(state, "shape = \"icosahedron\"\nedge = 6\n"); }

BENCHMARK(Cylinder)->ArgsProduct({{256, 512, 1024}, {1, 0}})->ArgNames({"N", "threads"})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(Icosahedron)->ArgsProduct({{256, 1024}, {0}})->ArgNames({"N", "threads"})->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
