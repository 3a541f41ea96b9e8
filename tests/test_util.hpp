// Shared test helpers: relative-error comparisons against a reference, temp
// directories, running the CLI.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace nanoscatter::test {

// max_i |a_i − b_i| / |b_i| over the entries where |b_i| > floor_fraction·max|b|.
double max_rel_error(const std::vector<double>& a, const std::vector<double>& reference,
                     double floor_fraction = 0.0);
// ‖a − b‖₂ / ‖b‖₂
double norm_rel_error(const std::vector<double>& a, const std::vector<double>& reference);

// A fresh empty directory under the build tree's temp area, removed at exit of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name);
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& f) const { return path_ / f; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code;
  std::string output;  // stdout and stderr together
};
// Run a shell command line and capture its output.
CommandResult run_command(const std::string& command_line);
// Run the nanoscatter CLI with the given arguments.
CommandResult run_cli(const std::string& arguments);

std::string read_text(const std::filesystem::path& path);

}  // namespace nanoscatter::test
