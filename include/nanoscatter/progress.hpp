// Progress reporting for long loops: a bar on stderr when stderr is a
// terminal and not quiet; otherwise only a final one-line summary (unless
// quiet). Thread-safe: advance() may be called from OpenMP threads.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace nanoscatter {

struct ProgressOptions {
  bool quiet = false;
  // Force the bar on or off; unset: on when stderr is a terminal.
  int interactive = -1;
  double min_interval_s = 0.2;  // redraw at most this often
};

class Progress {
 public:
  Progress(std::string label, std::uint64_t total, ProgressOptions options = {});
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(std::uint64_t amount = 1);
  // Print the summary line ("label: done in 1.23 s") once; called by the destructor.
  void finish();
  double elapsed_s() const;

 private:
  void draw(std::uint64_t done);
  std::string label_;
  std::uint64_t total_;
  ProgressOptions options_;
  bool bar_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::int64_t> last_draw_ns_{0};
  std::atomic<bool> finished_{false};
  std::chrono::steady_clock::time_point start_;
};

}  // namespace nanoscatter
