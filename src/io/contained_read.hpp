// Runs a third-party file decoder in a forked child process, so that what a
// crafted file does to that library cannot crash, exhaust or hang us.
//
// Why: fuzzing found libhdf5 1.10.8 allocating 2 GiB to 3 PB, looping for
// more than 10 s, copying overlapping ranges and leaking on small corrupt
// HDF5 files, on open and in attribute reads (finding 6), and CBFlib 0.9.7
// growing a buffer past 2 GB for a small crafted CBF (finding 7;
// bench/results/2026-11-26-fuzz.md). We cannot validate HDF5 ourselves, and
// both libraries are the ones Debian ships: the read goes where its failure
// is only a child's death.
//
// How: the child runs `read`, which writes its decoded result to a pipe
// (ResultWriter), and _exit()s; the parent decodes the bytes (ResultReader)
// while it enforces ContainedReadOptions: the wall time since the fork and
// the child's resident memory above what the parent had (polled from
// /proc/PID/statm; the child also gets RLIMIT_AS, except under
// AddressSanitizer, which reserves terabytes of address space). A child
// over a limit is killed; a child is always reaped, also when the parent
// unwinds. A nanoscatter::Error thrown in the child comes back and is
// rethrown unchanged; a signal, a kill or a limit becomes a one-line Error
// naming the file and the library.
//
// The child only reads and _exit()s: no atexit handlers, no flushing of
// stdio buffers it shares with the parent (flushed before the fork), no
// OpenMP (its thread pool does not survive fork), no MPI. It restores the
// default action of SIGINT and SIGTERM, whose inherited handler would
// delete the parent's temporary outputs (atomic_file.cpp), and of the crash
// signals, so that a sanitizer's or fuzzer's crash report of the parent
// does not claim the child's death. Under MPI every rank forks for its own
// reads; the memory limit applies per rank.
//
// Cost: one fork (the parent's page tables are copied: more for a process
// that holds gigabytes) and one copy of the result through the pipe.
// Measured with bench/contained_read_bench.cpp on the shared 2-core VM
// (load ~15, so upper bounds; bench/results/2026-11-26-fuzz.md, "Contained
// third-party readers"): an empty contained read 2.8 ms, a 64 × 64 HDF5
// image 9.3 ms, 4096 × 4096 (134 MB of float64) 1.37 s against ~0.6 s for
// libhdf5 reading it in-process; with the parent holding 2 GB, 0.64 s more.
#pragma once
#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>

#include "nanoscatter/contained_read.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::contained {

// What the Errors name: the file, and the library as a sentence's subject
// ("the HDF5 library", "CBFlib").
struct Decoder {
  std::string file;
  std::string library;
};

// The child's side of the pipe.
class ResultWriter {
 public:
  // `tag` opens the stream: what follows is a result, or (run() only) an
  // Error or a failure.
  explicit ResultWriter(int fd, char tag = 'R') : fd_(fd), tag_(tag) {}
  // ContainedReadOptions::in_process: the bytes go to `buffer`.
  explicit ResultWriter(std::string& buffer) : buffer_(&buffer), tag_('R') {}
  void bytes(const void* data, std::size_t size);
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  void text(const std::string& s);
  bool started() const { return started_; }

 private:
  int fd_ = -1;
  std::string* buffer_ = nullptr;
  char tag_;
  bool started_ = false;
};

class Child;

// The parent's side: every wait for bytes enforces the limits.
class ResultReader {
 public:
  explicit ResultReader(Child& child) : child_(&child) {}
  // ContainedReadOptions::in_process: the bytes come from `buffer`.
  ResultReader(const Decoder& decoder, const std::string& buffer) : decoder_(&decoder), buffer_(&buffer) {}
  void bytes(void* data, std::size_t size);
  template <class T>
  T value() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  // A string the child wrote with ResultWriter::text, refused when longer
  // than `max_size` (the child's bytes are no more trusted than the file).
  std::string text(std::size_t max_size);

  // In-process only: every byte of the buffer was read.
  void finish_buffer();

 private:
  [[noreturn]] void fail_broken(const char* why);

  Child* child_ = nullptr;
  const Decoder* decoder_ = nullptr;
  const std::string* buffer_ = nullptr;
  std::size_t position_ = 0;
};

// Forks; the child calls `read(writer)` and exits, the parent calls
// `decode(reader)` on what it wrote. `read` must do everything that can
// fail before its first write (an exception after that is reported as a
// broken result). Throws Error as described above. With
// options.in_process, `read` writes into memory and `decode` reads it back
// in this process; exceptions pass through (contained_read.hpp in
// include/ says what for).
void run(const Decoder& decoder, const ContainedReadOptions& options, const std::function<void(ResultWriter&)>& read,
         const std::function<void(ResultReader&)>& decode);

}  // namespace nanoscatter::contained
