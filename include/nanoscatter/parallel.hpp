// Running one job over several processes (MPI ranks, one per GPU or per set
// of cores; docs/mpi.md). A Session initialises MPI for the life of main()
// when the process was started by mpirun (or srun, mpiexec), and otherwise
// does nothing: the same binary runs alone as rank 0 of 1, and a build
// without MPI is always rank 0 of 1. The Communicator is a small value
// passed to whoever needs it (no globals); its collectives are the only
// places where ranks wait for each other.
//
// Failure protocol (no rank may wait for ever for one that has failed):
// every collective starts with an agreement, an all-reduce of "has any rank
// failed?". A rank that catches an error calls fail(), which joins the
// agreement the others are waiting in (or will reach at the end of main);
// then every rank learns the message of the lowest failing rank and its exit
// code, and the others throw RankFailure from the collective. All ranks then
// leave main normally with that code; rank 0 prints the one line.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/work_share.hpp"

namespace nanoscatter::parallel {

// Whether this build can run under MPI.
bool mpi_built();

// A failure agreed by all ranks: the message (a full line, without newline)
// and exit code of the lowest rank that failed.
struct Failure {
  int rank = 0;
  int code = 1;
  std::string message;
};

// The one line every rank's failure is reported with: the message, with
// "rank R of P: " after a leading "nanoscatter: error: " (or internal
// error) prefix when the failing rank is not rank 0.
std::string failure_line(const Failure& f, int size);

// Thrown by a collective on the ranks that did not fail themselves; what()
// is failure_line of the failure in a run of `size` ranks.
class RankFailure : public std::runtime_error {
 public:
  RankFailure(Failure f, int size) : std::runtime_error(failure_line(f, size)), failure_(std::move(f)) {}
  const Failure& failure() const { return failure_; }

 private:
  Failure failure_;
};

class Communicator {
 public:
  Communicator();  // a single process: rank 0 of 1
  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // among the ranks on this node
  int local_size() const { return local_size_; }
  bool root() const { return rank_ == 0; }
  bool distributed() const { return size_ > 1; }
  WorkShare share() const { return {rank_, size_}; }

  // The GPU of this rank: (local rank / ranks_per_gpu) mod devices, so that
  // consecutive ranks of a node share a GPU when ranks_per_gpu > 1.
  int device_for_rank(int devices, int ranks_per_gpu) const;

  // ---- collectives (every rank calls them, in the same order) ----
  // Agreement point: throws RankFailure when some rank has failed.
  void check() const;
  // Called once by a rank that caught an error (instead of check()): returns
  // the agreed failure, which may be a lower rank's.
  Failure fail(int code, const std::string& message) const;
  // Root: values[i] = Σ_r values_r[i], added in rank order 0, 1, …, size−1
  // in float64 (the documented reduction order). Others: unchanged.
  void sum_in_rank_order(std::span<double> values) const;
  // Root: values[i] from the one rank that computed it, for arrays whose
  // elements each rank either computed or left at exactly 0 (disjoint
  // pieces of an image): the sum x + 0 + … + 0 = x is exact in any order.
  void merge_disjoint(std::span<double> values) const;
  // Every rank: root's values (the sizes must agree).
  void broadcast(std::span<double> values) const;
  // Every rank: root's bytes (of any size).
  void broadcast(std::string& bytes) const;
  // Root: every rank's bytes in rank order; others: empty.
  std::vector<std::string> gather(const std::string& bytes) const;
  // Root: every rank's value in rank order; others: empty.
  std::vector<double> gather(double value) const;

  struct Impl;  // the MPI communicator (communicator.cpp)

 private:
  friend class Session;
  std::shared_ptr<const Impl> impl_;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

// MPI_Init_thread / MPI_Finalize around main's body. Throws Error when the
// process was started by a launcher with more than one process but this
// build has no MPI (every process would redo and rewrite the whole job).
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  const Communicator& world() const { return world_; }

 private:
  Communicator world_;
  bool initialised_ = false;
};

// A small binary writer and reader for gather(): trivially copyable values
// and vectors of them, read back in the order written.
class ByteWriter {
 public:
  template <class T>
  void put(const T& v) {
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    put<std::uint64_t>(v.size());
    bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(const std::string& bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    T v;
    take(&v, sizeof v);
    return v;
  }
  template <class T>
  std::vector<T> get_vector() {
    std::vector<T> v(get<std::uint64_t>());
    take(v.data(), v.size() * sizeof(T));
    return v;
  }
  bool done() const { return pos_ == bytes_.size(); }

 private:
  void take(void* out, std::size_t n);
  const std::string& bytes_;
  std::size_t pos_ = 0;
};

// Per-rank compute time and work, gathered to rank 0, which prints one line
// to stderr (when the job has more than one rank and quiet is false):
//   "<label>: load over 4 ranks: time 1.02 1.01 0.99 1.00 s; work 25.0% 25.0% 25.0% 25.0%;
//    gpu 0 1 2 3; imbalance 2.0% (max/mean - 1)"
// imbalance = max/mean − 1 of the times; the work shares are left out when
// no rank gives a work > 0, the GPUs (each rank's current device) when
// `device` is the CPU. A collective.
void report_load(const Communicator& comm, const std::string& label, double seconds, double work, bool quiet,
                 Device device);

}  // namespace nanoscatter::parallel
