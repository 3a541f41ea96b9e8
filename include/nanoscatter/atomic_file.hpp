// Write-then-rename output: data go to "<path>.tmp.<pid>" and the file
// appears under its real name only when commit() succeeds, so an interrupted
// or failed run never leaves a half-written output behind.
#pragma once
#include <filesystem>
#include <string>

namespace nanoscatter {

class AtomicOutput {
 public:
  explicit AtomicOutput(std::filesystem::path final_path);
  ~AtomicOutput();  // removes the temporary file unless committed
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  // Where the writer should put its bytes.
  const std::filesystem::path& temp_path() const { return temp_; }
  const std::filesystem::path& final_path() const { return final_; }
  // Rename the temporary file onto the final name (throws Error on failure).
  void commit();

 private:
  std::filesystem::path final_, temp_;
  bool committed_ = false;
};

}  // namespace nanoscatter
