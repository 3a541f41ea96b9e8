// What containing a third-party read costs (src/io/contained_read.hpp):
//  - HDF5 image read through read_detector_image (fork, libhdf5 in the
//    child, the image through the pipe) for 64², 1024² and 4096² int32
//    pixels, against
//  - the transfer alone: contained::run sending as many float64 values
//    from the child as the image has, and
//  - an empty contained read while the parent holds 0 or 2 GB (fork
//    copies the page tables of everything the parent has mapped).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/contained_read.hpp"
#include "nanoscatter/detector_image.hpp"
#include "nanoscatter/io_hdf5.hpp"

using namespace nanoscatter;

namespace {

std::string image_file(std::size_t side) {
  const auto path = std::filesystem::temp_directory_path() / ("ns_contained_bench_" + std::to_string(side) + ".h5");
  if (!std::filesystem::exists(path)) {
    std::vector<std::int32_t> v(side * side, 3);
    H5Writer w(path);
    w.write("/data", v.data(), {side, side});
    w.commit();
  }
  return path.string();
}

void BM_Hdf5ImageContained(benchmark::State& state) {
  const std::string file = image_file(std::size_t(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(read_detector_image(file).values.data());
  state.SetBytesProcessed(int64_t(state.iterations()) * state.range(0) * state.range(0) * int64_t(sizeof(double)));
}

void BM_TransferOnly(benchmark::State& state) {
  const std::vector<double> payload(std::size_t(state.range(0) * state.range(0)), 1.5);
  for (auto _ : state) {
    std::vector<double> back(payload.size());
    contained::run(
        {"bench", "bench"}, ContainedReadOptions{},
        [&](contained::ResultWriter& w) { w.bytes(payload.data(), payload.size() * sizeof(double)); },
        [&](contained::ResultReader& r) { r.bytes(back.data(), back.size() * sizeof(double)); });
    benchmark::DoNotOptimize(back.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(payload.size() * sizeof(double)));
}

void BM_EmptyReadParentHolding(benchmark::State& state) {
  std::vector<char> ballast(std::size_t(state.range(0)) << 20, 1);  // MiB, touched
  for (auto _ : state)
    contained::run({"bench", "bench"}, ContainedReadOptions{}, [](contained::ResultWriter&) {},
                   [](contained::ResultReader&) {});
  benchmark::DoNotOptimize(ballast.data());
}

}  // namespace

BENCHMARK(BM_Hdf5ImageContained)->Arg(64)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TransferOnly)->Arg(64)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EmptyReadParentHolding)->Arg(0)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
