#include "nanoscatter/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace nanoscatter {

Progress::Progress(std::string label, std::uint64_t total, ProgressOptions options)
    : label_(std::move(label)), total_(total), options_(options), start_(std::chrono::steady_clock::now()) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  bar_ = !options_.quiet && (options_.interactive < 0 ? tty : options_.interactive > 0);
}

Progress::~Progress() { finish(); }

double Progress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::advance(std::uint64_t amount) {
  const std::uint64_t done = done_.fetch_add(amount) + amount;
  if (!bar_) return;
  const auto now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - start_).count();
  auto last = last_draw_ns_.load();
  if (now_ns - last < static_cast<std::int64_t>(options_.min_interval_s * 1e9)) return;
  // Only the thread that wins the exchange draws, so lines never interleave.
  if (last_draw_ns_.compare_exchange_strong(last, now_ns)) draw(done);
}

void Progress::draw(std::uint64_t done) {
  const double frac = total_ ? std::min(1.0, double(done) / double(total_)) : 1.0;
  const int width = 30;
  const int filled = static_cast<int>(frac * width);
  std::fprintf(stderr, "\r%s [%.*s%*s] %5.1f%% %6.1f s", label_.c_str(), filled,
               "##############################", width - filled, "", 100 * frac, elapsed_s());
  std::fflush(stderr);
}

void Progress::finish() {
  if (finished_.exchange(true)) return;
  if (options_.quiet) return;
  if (bar_) {
    draw(total_);
    std::fprintf(stderr, "\n");
  }
  std::fprintf(stderr, "%s: done in %.3f s\n", label_.c_str(), elapsed_s());
}

}  // namespace nanoscatter
