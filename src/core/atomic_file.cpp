#include "nanoscatter/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <system_error>

#include "nanoscatter/error.hpp"

namespace nanoscatter {
namespace {

// The registry the signal handler reads: fixed-size buffers, so that the
// handler neither allocates nor locks (async-signal-safe).
constexpr int kMaxTemporaries = 64;      // outputs open at once (a run writes a handful)
constexpr std::size_t kMaxPathBytes = 4096;  // PATH_MAX on Linux, with its terminating NUL
enum SlotState : int { kFree = 0, kFilling = 1, kReady = 2 };
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slot states");

struct TemporarySlot {
  std::atomic<int> state{kFree};
  bool directory = false;  // a flat staging folder, removed with its files
  char path[kMaxPathBytes];
};
TemporarySlot g_temporaries[kMaxTemporaries];

int register_temporary(const std::filesystem::path& temp, const std::filesystem::path& final_path,
                       bool directory = false) {
  const std::string text = std::filesystem::absolute(temp).string();
  if (text.size() >= kMaxPathBytes)
    fail_at({final_path.string(), 0, "--output"}, "path longer than ", kMaxPathBytes - 1, " bytes");
  for (int i = 0; i < kMaxTemporaries; ++i) {
    int expected = kFree;
    if (!g_temporaries[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_temporaries[i].path, text.c_str(), text.size() + 1);
    g_temporaries[i].directory = directory;
    g_temporaries[i].state.store(kReady);
    return i;
  }
  fail_at({final_path.string(), 0, "--output"}, "more than ", kMaxTemporaries, " outputs open at once");
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_temporaries[slot].state.store(kFree);
}

// A flat folder and its files, with system calls only (async-signal-safe):
// passes over the entries until one removes nothing, as removing entries
// while reading them may skip some.
void remove_flat_directory(const char* path) {
  const int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(struct dirent64) char buffer[4096];
    for (bool removed = true; removed;) {
      removed = false;
      lseek(fd, 0, SEEK_SET);
      for (ssize_t n; (n = getdents64(fd, buffer, sizeof buffer)) > 0;)
        for (ssize_t offset = 0; offset < n;) {
          const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + offset);
          offset += entry->d_reclen;
          const char* name = entry->d_name;
          if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
          removed = unlinkat(fd, name, 0) == 0 || removed;
        }
    }
    close(fd);
  }
  rmdir(path);
}

extern "C" void remove_temporaries_and_exit(int signal_number) {
  for (TemporarySlot& slot : g_temporaries) {
    if (slot.state.load() != kReady) continue;
    if (slot.directory)
      remove_flat_directory(slot.path);
    else
      unlink(slot.path);
  }
  // The shell's convention for a process ended by a signal.
  constexpr int kSignalExitBase = 128;
  _exit(kSignalExitBase + signal_number);
}

void install_handler(int signal_number) {
  struct sigaction current {};
  if (sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = remove_temporaries_and_exit;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, nullptr);
}

}  // namespace

AtomicOutput::AtomicOutput(std::filesystem::path final_path) : final_(std::move(final_path)) {
  if (final_.empty()) fail_option("output", "empty output path");
  // Keep the extension last so format-sniffing libraries (HDF5, PNG) are unaffected.
  temp_ = final_;
  temp_.replace_filename("." + final_.filename().string() + ".tmp" + std::to_string(getpid()) +
                         final_.extension().string());
  const auto dir = final_.parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_at({final_.string(), 0, "--output"}, "directory '", dir.string(), "' does not exist");
  signal_slot_ = register_temporary(temp_, final_);
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove(temp_, ec);
  }
  unregister_temporary(signal_slot_);
}

void AtomicOutput::commit() {
  std::error_code ec;
  std::filesystem::rename(temp_, final_, ec);
  if (ec) fail_at({final_.string(), 0, "--output"}, "cannot write output: ", ec.message());
  committed_ = true;
  unregister_temporary(signal_slot_);
  signal_slot_ = -1;
}

int register_staging_directory(const std::filesystem::path& dir) { return register_temporary(dir, dir, true); }

void release_staging_directory(int handle) { unregister_temporary(handle); }

void install_output_signal_handlers() {
  install_handler(SIGINT);
  install_handler(SIGTERM);
}

void check_output_directory(const std::filesystem::path& dir, const std::string& field) {
  if (dir.empty()) fail_option(field, "empty directory name");
  const Where where{dir.string(), 0, field, true};
  std::error_code ec;
  std::filesystem::path existing = std::filesystem::absolute(dir, ec);
  if (ec) fail_at(where, "cannot resolve the path: ", ec.message());
  while (!std::filesystem::exists(existing, ec) && existing.has_relative_path()) existing = existing.parent_path();
  if (!std::filesystem::is_directory(existing, ec))
    fail_at(where, existing == std::filesystem::absolute(dir) ? "exists and is not a directory"
                                                             : "'" + existing.string() + "' is not a directory");
  if (access(existing.c_str(), W_OK | X_OK) != 0)
    fail_at(where, "cannot create files in '", existing.string(), "': ",
            std::error_code(errno, std::generic_category()).message());
}

void make_output_directory(const std::filesystem::path& dir, const std::string& field) {
  check_output_directory(dir, field);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) fail_at({dir.string(), 0, field, true}, "cannot create the directory: ", ec.message());
}

}  // namespace nanoscatter
