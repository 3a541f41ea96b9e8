#include "nanoscatter/atomic_file.hpp"

#include <unistd.h>

#include <system_error>

#include "nanoscatter/error.hpp"

namespace nanoscatter {

AtomicOutput::AtomicOutput(std::filesystem::path final_path) : final_(std::move(final_path)) {
  if (final_.empty()) fail_option("output", "empty output path");
  // Keep the extension last so format-sniffing libraries (HDF5, PNG) are unaffected.
  temp_ = final_;
  temp_.replace_filename("." + final_.filename().string() + ".tmp" + std::to_string(getpid()) +
                         final_.extension().string());
  const auto dir = final_.parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_at({final_.string(), 0, "--output"}, "directory '", dir.string(), "' does not exist");
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove(temp_, ec);
  }
}

void AtomicOutput::commit() {
  std::error_code ec;
  std::filesystem::rename(temp_, final_, ec);
  if (ec) fail_at({final_.string(), 0, "--output"}, "cannot write output: ", ec.message());
  committed_ = true;
}

}  // namespace nanoscatter
