#include "io/contained_read.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <new>
#include <sstream>

#include "nanoscatter/resource_guard.hpp"

// AddressSanitizer (and TSan, MSan) reserve terabytes of address space for
// their shadow memory: an RLIMIT_AS would make them fail at once.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NS_SANITIZER_SHADOW 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define NS_SANITIZER_SHADOW 1
#endif
#endif

// Present only where a sanitizer runtime is linked in (weak: null otherwise).
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace nanoscatter {

void ContainedReadOptions::validate() const {
  if (!(time_limit_s > 0) || !std::isfinite(time_limit_s)) fail_option("time_limit_s", "must be > 0 s");
  if (memory_limit_bytes == 0) fail_option("memory_limit_bytes", "must be > 0");
}

namespace contained {
namespace {

using Clock = std::chrono::steady_clock;

// What the child's first byte says it sends.
enum Tag : char { kResult = 'R', kError = 'E', kOutOfMemory = 'M', kOtherException = 'X' };
// The child's exit status when it cannot deliver what it started to write.
constexpr int kBrokenResultExit = 101;
// How often the parent looks at the child's memory while it waits.
constexpr int kPollIntervalMs = 5;
// The pipe's buffer: fewer wake-ups for a large image (Linux's default
// pipe-max-size; a refusal keeps the 64 KiB default).
constexpr int kPipeBytes = 1 << 20;
// Longer texts from the child are a broken result (an Error's message is
// one line; a field or file name fits in a path's length).
constexpr std::size_t kMaxErrorText = 1 << 16;

// Resident and virtual size of a process in bytes (/proc/PID/statm), with
// system calls only: the child calls this after fork.
struct Statm {
  double resident = 0;
  double virtual_size = 0;
};

Statm statm(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/statm", int(pid));
  Statm out;
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char text[128] = {};
  const ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return out;
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(text, "%llu %llu", &size, &resident) != 2) return out;
  const double page = double(sysconf(_SC_PAGESIZE));
  out.virtual_size = double(size) * page;
  out.resident = double(resident) * page;
  return out;
}

std::string seconds_text(double s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

// The child: restores default signal actions (see the header), limits its
// address space, runs `read` and exits without running any of the
// parent's exit-time code.
[[noreturn]] void child_main(int fd, pid_t parent, double address_space_limit,
                             const std::function<void(ResultWriter&)>& read) {
  // Nobody would enforce the limits on an orphan: it dies with the parent
  // (also if the parent died before this line).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(kBrokenResultExit);
  for (int s : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    if (sigaction(s, nullptr, &current) == 0 && current.sa_handler != SIG_IGN) std::signal(s, SIG_DFL);
  }
  // The parent's crash handlers (libFuzzer's, a sanitizer's death
  // callback) would report the library's crash as the parent's own: the
  // child just dies of the signal, which the parent reads.
  for (int s : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ, SIGALRM, SIGUSR1,
                SIGUSR2, SIGPIPE})
    std::signal(s, SIG_DFL);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
#ifndef NS_SANITIZER_SHADOW
  // The soft limit only: it may not exceed the hard limit the parent has.
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && address_space_limit < double(limit.rlim_max)) {
    limit.rlim_cur = rlim_t(address_space_limit);
    setrlimit(RLIMIT_AS, &limit);
  }
#else
  (void)address_space_limit;
#endif
  ResultWriter out(fd);
  try {
    read(out);
    if (!out.started()) out.bytes(nullptr, 0);
  } catch (const Error& e) {
    if (out.started()) _exit(kBrokenResultExit);
    ResultWriter error(fd, kError);
    error.text(e.where().file);
    error.value<std::int32_t>(e.where().line);
    error.text(e.where().field);
    error.value<char>(e.where().option ? 1 : 0);
    error.text(e.reason());
  } catch (const std::bad_alloc&) {
    if (out.started()) _exit(kBrokenResultExit);
    ResultWriter(fd, kOutOfMemory).bytes(nullptr, 0);
  } catch (const std::exception& e) {
    if (out.started()) _exit(kBrokenResultExit);
    ResultWriter(fd, kOtherException).text(e.what());
  } catch (...) {
    _exit(kBrokenResultExit);
  }
  close(fd);
  _exit(0);
}

}  // namespace

void ResultWriter::bytes(const void* data, std::size_t size) {
  if (!started_) {
    started_ = true;
    bytes(&tag_, 1);
  }
  const auto* p = static_cast<const char*>(data);
  if (buffer_) {
    if (size > 0) buffer_->append(p, size);
    return;
  }
  while (size > 0) {
    const ssize_t n = write(fd_, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(kBrokenResultExit);  // the parent has gone or given up
    p += n;
    size -= std::size_t(n);
  }
}

void ResultWriter::text(const std::string& s) {
  value<std::uint64_t>(s.size());
  bytes(s.data(), s.size());
}

// The parent's view of the child: the limits, and the reaping.
class Child {
 public:
  Child(const Decoder& decoder, const ContainedReadOptions& options, double memory_limit, double baseline_resident,
        pid_t pid, int fd)
      : decoder_(decoder),
        options_(options),
        memory_limit_(memory_limit),
        baseline_resident_(baseline_resident),
        pid_(pid),
        fd_(fd),
        start_(Clock::now()) {}
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (fd_ >= 0) close(fd_);
    if (!reaped_) kill_and_reap();
  }

  // Waits until the pipe has bytes or is closed, within the limits.
  void wait_readable() {
    for (;;) {
      check_limits();
      pollfd p{fd_, POLLIN, 0};
      const int n = poll(&p, 1, kPollIntervalMs);
      if (n > 0) return;
      if (n < 0 && errno != EINTR) fail_at({decoder_.file, 0, ""}, "cannot wait for ", decoder_.library, "'s reader");
    }
  }

  int fd() const { return fd_; }

  // The pipe closed before the child said all it had to: why.
  [[noreturn]] void ended_early() {
    const int status = reap_within_limit();
    fail_status(status, "its reader ended without a result");
  }

  // After the result: the pipe must close and the child exit cleanly.
  void finish() {
    char extra = 0;
    wait_readable();
    ssize_t n;
    while ((n = read(fd_, &extra, 1)) < 0 && errno == EINTR) {
    }
    if (n > 0) {
      kill_and_reap();
      fail_broken("its reader sent more than its result");
    }
    const int status = reap_within_limit();
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) fail_status(status, "its reader did not exit cleanly");
  }

  [[noreturn]] void fail_broken(const char* why) {
    fail_at({decoder_.file, 0, ""}, decoder_.library, " failed on this file (", why, ")");
  }

  [[noreturn]] void fail_memory() {
    fail_at({decoder_.file, 0, ""}, decoder_.library, " needed more than ", format_gigabytes(memory_limit_),
            " of memory for this file");
  }

 private:
  double elapsed_s() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  void check_limits() {
    if (elapsed_s() > options_.time_limit_s) {
      kill_and_reap();
      fail_at({decoder_.file, 0, ""}, decoder_.library, " took more than ", seconds_text(options_.time_limit_s),
              " s for this file");
    }
    // /proc costs a few microseconds: looked at once per poll interval.
    const Clock::time_point now = Clock::now();
    if (now - last_memory_check_ < std::chrono::milliseconds(kPollIntervalMs)) return;
    last_memory_check_ = now;
    if (statm(pid_).resident - baseline_resident_ > memory_limit_) {
      kill_and_reap();
      fail_memory();
    }
  }

  void kill_and_reap() {
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
  }

  // The exit status, killing the child if it does not exit in time.
  int reap_within_limit() {
    constexpr int kReapPollMicroseconds = 200;
    for (;;) {
      int status = 0;
      const pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        reaped_ = true;
        return status;
      }
      if (r < 0 && errno != EINTR) {
        // Reaped elsewhere (SIGCHLD ignored by the embedding program): no status to tell.
        reaped_ = true;
        return 0;
      }
      check_limits();
      usleep(kReapPollMicroseconds);
    }
  }

  [[noreturn]] void fail_status(int status, const char* otherwise) {
    const Where where{decoder_.file, 0, ""};
    if (WIFSIGNALED(status)) {
      const int s = WTERMSIG(status);
      const char* name = strsignal(s);
      fail_at(where, decoder_.library, " failed on this file (signal ", s, " in its reader: ",
              name ? name : "unknown signal", ")");
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
      fail_at(where, decoder_.library, " failed on this file (its reader exited with status ", WEXITSTATUS(status),
              ")");
    fail_broken(otherwise);
  }

  const Decoder& decoder_;
  const ContainedReadOptions& options_;
  double memory_limit_;
  double baseline_resident_;
  pid_t pid_;
  int fd_;
  Clock::time_point start_;
  Clock::time_point last_memory_check_{};
  bool reaped_ = false;
};

void ResultReader::bytes(void* data, std::size_t size) {
  auto* p = static_cast<char*>(data);
  if (buffer_) {
    if (size > buffer_->size() - position_) fail_broken("its reader ended without a result");
    if (size > 0) std::memcpy(p, buffer_->data() + position_, size);
    position_ += size;
    return;
  }
  while (size > 0) {
    child_->wait_readable();
    const ssize_t n = read(child_->fd(), p, size);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) child_->ended_early();
    p += n;
    size -= std::size_t(n);
  }
}

void ResultReader::fail_broken(const char* why) {
  if (child_) child_->fail_broken(why);
  fail_at({decoder_->file, 0, ""}, decoder_->library, " failed on this file (", why, ")");
}

void ResultReader::finish_buffer() {
  if (buffer_ && position_ != buffer_->size()) fail_broken("its reader sent more than its result");
}

std::string ResultReader::text(std::size_t max_size) {
  const auto size = value<std::uint64_t>();
  if (size > max_size) fail_broken("its reader sent an over-long text");
  std::string s(size, '\0');
  bytes(s.data(), s.size());
  return s;
}

namespace {

// ContainedReadOptions::in_process: the child's and the parent's halves in
// this process, through memory; the result takes the same encoding and
// checks as through the pipe, and exceptions pass through.
void run_in_process(const Decoder& decoder, const std::function<void(ResultWriter&)>& read,
                    const std::function<void(ResultReader&)>& decode) {
  std::string buffer;
  ResultWriter out(buffer);
  read(out);
  if (!out.started()) out.bytes(nullptr, 0);
  ResultReader in(decoder, buffer);
  if (in.value<char>() != kResult) fail_at({decoder.file, 0, ""}, "internal: an in-process read sent no result");
  decode(in);
  in.finish_buffer();
}

}  // namespace

void run(const Decoder& decoder, const ContainedReadOptions& options, const std::function<void(ResultWriter&)>& read,
         const std::function<void(ResultReader&)>& decode) {
  options.validate();
  if (options.in_process) {
    run_in_process(decoder, read, decode);
    return;
  }
  const double memory_limit = std::min(double(options.memory_limit_bytes), available_host_bytes());
  const Statm self = statm(getpid());
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    fail_at({decoder.file, 0, ""}, "cannot open a pipe to ", decoder.library, "'s reader: ", std::strerror(errno));
  fcntl(fds[0], F_SETPIPE_SZ, kPipeBytes);
  // Buffered output would otherwise be written twice if anything in the
  // child flushed it.
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    child_main(fds[1], parent, self.virtual_size + memory_limit, read);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    fail_at({decoder.file, 0, ""}, "cannot start a process for ", decoder.library, ": ", std::strerror(errno));
  }
  Child child(decoder, options, memory_limit, self.resident, pid, fds[0]);
  ResultReader in(child);
  switch (in.value<char>()) {
    case kResult:
      decode(in);
      child.finish();
      return;
    case kError: {
      Where where;
      where.file = in.text(kMaxErrorText);
      where.line = in.value<std::int32_t>();
      where.field = in.text(kMaxErrorText);
      where.option = in.value<char>() != 0;
      const std::string reason = in.text(kMaxErrorText);
      child.finish();
      throw Error(where, reason);
    }
    case kOutOfMemory:
      child.finish();
      child.fail_memory();
    case kOtherException: {
      const std::string what = in.text(kMaxErrorText);
      child.finish();
      fail_at({decoder.file, 0, ""}, decoder.library, " failed on this file (", what, ")");
    }
    default:
      child.fail_broken("its reader sent no result");
  }
}

}  // namespace contained
}  // namespace nanoscatter
