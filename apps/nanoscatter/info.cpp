// `nanoscatter info`: what this build has (CUDA, devices, version).
#include <cstdio>

#include "commands.hpp"

namespace nanoscatter::cli {

void add_info_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("info", "print the build configuration and the devices found");
  sub->callback([&context] {
    if (!context.comm.root()) return;  // one report under mpirun
    std::printf("nanoscatter %s\n", context.version.c_str());
    std::printf("cuda: %s\n", NANOSCATTER_HAVE_CUDA ? "built" : "not built");
    std::printf("mpi: %s", parallel::mpi_built() ? "built" : "not built");
    if (context.comm.distributed()) std::printf(" (%d ranks)", context.comm.size());
    std::printf("\n");
    const int n = cuda_device_count();
    std::printf("gpus: %d%s%s\n", n, n ? " (" : "", n ? (cuda_device_name() + ")").c_str() : "");
  });
}

}  // namespace nanoscatter::cli
