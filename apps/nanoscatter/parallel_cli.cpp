// The CLI's side of MPI runs (docs/mpi.md): the --ranks-per-gpu option and
// the choice of each rank's GPU.
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "commands.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::cli {

void add_ranks_per_gpu_option(CLI::App& sub, int& ranks_per_gpu) {
  sub.add_option("--ranks-per-gpu", ranks_per_gpu,
                 "under mpirun: consecutive ranks of a node that share one GPU (small problems)")
      ->capture_default_str();
}

Device select_rank_device(DeviceRequest request, int ranks_per_gpu, const RunContext& context) {
  if (ranks_per_gpu < 1) fail_at({"", 0, "--ranks-per-gpu"}, "must be ≥ 1, got ", ranks_per_gpu);
  const Device device = select_device(request);
  if (device == Device::gpu && context.comm.distributed())
    use_cuda_device(context.comm.device_for_rank(cuda_device_count(), ranks_per_gpu));
  return device;
}

void share_cores_between_ranks(const parallel::Communicator& comm) {
  if (!comm.distributed() || std::getenv("OMP_NUM_THREADS")) return;
  // A rank bound to some cores (mpirun's default binding) already sees only
  // those; an unbound rank sees the whole node, which its neighbours share.
  const int visible = omp_get_num_procs();
  const int node = int(std::max(1u, std::thread::hardware_concurrency()));
  if (visible < node) return;
  omp_set_num_threads(std::max(1, node / std::max(1, comm.local_size())));
}

}  // namespace nanoscatter::cli
