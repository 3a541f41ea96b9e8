// Communicator and Session (parallel.hpp): MPI when the build has it and the
// process was started by an MPI launcher, a single rank otherwise.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/parallel.hpp"

#if defined(NANOSCATTER_HAVE_MPI) && NANOSCATTER_HAVE_MPI
// The C API only: OpenMPI's and MPICH's mpi.h pull in the deprecated C++
// bindings (and their library) unless told not to.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#define NS_WITH_MPI 1
#else
#define NS_WITH_MPI 0
#endif

namespace nanoscatter::parallel {

namespace {

// Processes in the job according to the launcher's environment (OpenMPI,
// MPICH/Hydra and Intel MPI, PMIx launchers such as srun --mpi=pmix);
// 0 when no launcher started this process.
int launcher_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    if (const char* v = std::getenv(name)) return std::max(1, std::atoi(v));
  if (std::getenv("PMIX_RANK")) return 1;  // PMIx without a size variable: some launcher
  return 0;
}

}  // namespace

bool mpi_built() { return NS_WITH_MPI != 0; }

#if NS_WITH_MPI
struct Communicator::Impl {
  MPI_Comm comm = MPI_COMM_SELF;
};
#else
struct Communicator::Impl {};
#endif

Communicator::Communicator() = default;

int Communicator::device_for_rank(int devices, int ranks_per_gpu) const {
  if (devices < 1) return 0;
  return (local_rank_ / std::max(1, ranks_per_gpu)) % devices;
}

void ByteReader::take(void* out, std::size_t n) {
  if (n > bytes_.size() - pos_) fail("ByteReader: message shorter than expected");
  if (n) std::memcpy(out, bytes_.data() + pos_, n);
  pos_ += n;
}

#if NS_WITH_MPI

namespace {

// The agreement: the lowest failing rank (size when none), then its code
// and message from it to all.
Failure* agree(MPI_Comm comm, int rank, int size, bool failed, int code, const std::string& message,
               Failure& out) {
  int mine = failed ? rank : size, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return nullptr;
  int head[2] = {code, static_cast<int>(message.size())};
  MPI_Bcast(head, 2, MPI_INT, first, comm);
  std::string text(static_cast<std::size_t>(head[1]), '\0');
  if (rank == first) text = message;
  MPI_Bcast(text.data(), head[1], MPI_CHAR, first, comm);
  out = Failure{first, head[0], std::move(text)};
  return &out;
}

}  // namespace

void Communicator::check() const {
  if (size_ == 1) return;
  Failure f;
  if (agree(impl_->comm, rank_, size_, false, 0, {}, f)) throw RankFailure(std::move(f), size_);
}

Failure Communicator::fail(int code, const std::string& message) const {
  if (size_ == 1) return Failure{0, code, message};
  Failure f;
  agree(impl_->comm, rank_, size_, true, code, message, f);
  return f;
}

void Communicator::sum_in_rank_order(std::span<double> values) const {
  if (size_ == 1) return;
  std::vector<double> all(root() ? values.size() * std::size_t(size_) : 0);
  check();
  MPI_Gather(values.data(), int(values.size()), MPI_DOUBLE, all.data(), int(values.size()), MPI_DOUBLE, 0,
             impl_->comm);
  if (!root()) return;
  for (std::size_t i = 0; i < values.size(); ++i) {
    double s = all[i];
    for (std::size_t r = 1; r < std::size_t(size_); ++r) s += all[r * values.size() + i];
    values[i] = s;
  }
}

void Communicator::broadcast(std::span<double> values) const {
  if (size_ == 1) return;
  check();
  constexpr std::size_t kPiece = std::size_t(1) << 28;  // MPI counts are int
  for (std::size_t b = 0; b < values.size(); b += kPiece)
    MPI_Bcast(values.data() + b, int(std::min(kPiece, values.size() - b)), MPI_DOUBLE, 0, impl_->comm);
}

void Communicator::broadcast(std::string& bytes) const {
  if (size_ == 1) return;
  check();
  std::uint64_t n = bytes.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, impl_->comm);
  bytes.resize(n);
  constexpr std::size_t kPiece = std::size_t(1) << 30;  // MPI counts are int
  for (std::size_t b = 0; b < n; b += kPiece)
    MPI_Bcast(bytes.data() + b, int(std::min<std::size_t>(kPiece, n - b)), MPI_CHAR, 0, impl_->comm);
}

void Communicator::merge_disjoint(std::span<double> values) const {
  if (size_ == 1) return;
  check();
  // MPI counts are int: large images go in pieces.
  constexpr std::size_t kPiece = std::size_t(1) << 28;
  for (std::size_t b = 0; b < values.size(); b += kPiece) {
    const int n = int(std::min(kPiece, values.size() - b));
    if (root())
      MPI_Reduce(MPI_IN_PLACE, values.data() + b, n, MPI_DOUBLE, MPI_SUM, 0, impl_->comm);
    else
      MPI_Reduce(values.data() + b, nullptr, n, MPI_DOUBLE, MPI_SUM, 0, impl_->comm);
  }
}

std::vector<std::string> Communicator::gather(const std::string& bytes) const {
  if (size_ == 1) return {bytes};
  check();
  // Sizes first (64-bit), then the bytes rank by rank (a message may exceed
  // the 2 GiB an int count can describe in one MPI_Gatherv).
  const std::uint64_t mine = bytes.size();
  std::vector<std::uint64_t> sizes(root() ? std::size_t(size_) : 0);
  MPI_Gather(&mine, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, impl_->comm);
  constexpr std::size_t kPiece = std::size_t(1) << 30;
  std::vector<std::string> out;
  if (root()) {
    out.resize(std::size_t(size_));
    out[0] = bytes;
    for (int r = 1; r < size_; ++r) {
      out[std::size_t(r)].resize(sizes[std::size_t(r)]);
      for (std::size_t b = 0; b < sizes[std::size_t(r)]; b += kPiece)
        MPI_Recv(out[std::size_t(r)].data() + b, int(std::min(kPiece, sizes[std::size_t(r)] - b)), MPI_CHAR, r, 7,
                 impl_->comm, MPI_STATUS_IGNORE);
    }
  } else {
    for (std::size_t b = 0; b < bytes.size(); b += kPiece)
      MPI_Send(bytes.data() + b, int(std::min(kPiece, bytes.size() - b)), MPI_CHAR, 0, 7, impl_->comm);
  }
  return out;
}

std::vector<double> Communicator::gather(double value) const {
  if (size_ == 1) return {value};
  std::vector<double> out(root() ? std::size_t(size_) : 0);
  check();
  MPI_Gather(&value, 1, MPI_DOUBLE, out.data(), 1, MPI_DOUBLE, 0, impl_->comm);
  return out;
}

Session::Session(int& argc, char**& argv) {
  if (launcher_size() == 0) return;  // started without mpirun: one rank, no MPI at all
  int provided = 0;
  // Only the main thread calls MPI; OpenMP threads do not.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  initialised_ = true;
  auto impl = std::make_shared<Communicator::Impl>();
  impl->comm = MPI_COMM_WORLD;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_.rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &world_.size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_.rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &world_.local_rank_);
  MPI_Comm_size(node, &world_.local_size_);
  MPI_Comm_free(&node);
  world_.impl_ = std::move(impl);
}

Session::~Session() {
  if (initialised_) MPI_Finalize();
}

#else  // no MPI: every collective is the identity on one rank

void Communicator::check() const {}
Failure Communicator::fail(int code, const std::string& message) const { return Failure{0, code, message}; }
void Communicator::sum_in_rank_order(std::span<double>) const {}
void Communicator::merge_disjoint(std::span<double>) const {}
void Communicator::broadcast(std::span<double>) const {}
void Communicator::broadcast(std::string&) const {}
std::vector<std::string> Communicator::gather(const std::string& bytes) const { return {bytes}; }
std::vector<double> Communicator::gather(double value) const { return {value}; }

Session::Session(int&, char**&) {
  const int n = launcher_size();
  if (n > 1)
    fail_at({"", 0, "mpirun"}, "started as one of ", n,
            " MPI processes, but this nanoscatter was built without MPI (configure with -DNANOSCATTER_MPI=ON)");
}

Session::~Session() = default;

#endif

void report_load(const Communicator& comm, const std::string& label, double seconds, double work, bool quiet,
                 Device device) {
  const std::vector<double> times = comm.gather(seconds);
  const std::vector<double> works = comm.gather(work);
  const std::vector<double> gpus = comm.gather(device == Device::gpu ? double(current_cuda_device()) : -1.0);
  if (!comm.root() || quiet || comm.size() == 1) return;
  double max_t = 0, sum_t = 0, sum_w = 0;
  for (double t : times) max_t = std::max(max_t, t), sum_t += t;
  for (double w : works) sum_w += w;
  const double mean = sum_t / double(times.size());
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(3);
  os << label << ": load over " << comm.size() << " ranks: time";
  for (double t : times) os << ' ' << t;
  os << " s";
  if (sum_w > 0) {
    os << "; work";
    os.precision(1);
    for (double w : works) os << ' ' << 100 * w / sum_w << '%';
  }
  if (device == Device::gpu) {
    os << "; gpu";
    for (double g : gpus) os << ' ' << int(g);
  }
  os.precision(1);
  os << "; imbalance " << (mean > 0 ? 100 * (max_t / mean - 1) : 0) << "% (max/mean - 1)";
  std::fprintf(stderr, "%s\n", os.str().c_str());
}

}  // namespace nanoscatter::parallel

namespace nanoscatter::parallel {

std::string failure_line(const Failure& f, int size) {
  if (size == 1 || f.rank == 0) return f.message;
  const std::string where = "rank " + std::to_string(f.rank) + " of " + std::to_string(size) + ": ";
  for (const std::string prefix : {"nanoscatter: error: ", "nanoscatter: internal error: "})
    if (f.message.rfind(prefix, 0) == 0) return prefix + where + f.message.substr(prefix.size());
  return where + f.message;
}

}  // namespace nanoscatter::parallel
