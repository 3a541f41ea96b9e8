// Shared test helpers: relative-error comparisons against a reference, temp
// directories, running the CLI.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "nanoscatter/vec3.hpp"
#include "structure/species_split.hpp"

namespace nanoscatter::test {

// The message of the nanoscatter::Error that f throws, or "(no error)".
std::string error_of(const std::function<void()>& f);

// max_i |a_i − b_i| / |b_i| over the entries where |b_i| > floor_fraction·max|b|.
double max_rel_error(const std::vector<double>& a, const std::vector<double>& reference,
                     double floor_fraction = 0.0);
// max_i |a_i − b_i| / max(|b_i|, floor_fraction·max|b|): relative where
// the reference is above the floor, relative to the floor below it (an
// image's deep minima count, but not as relative errors of ~0).
double max_rel_error_floored(const std::vector<double>& a, const std::vector<double>& reference,
                             double floor_fraction);
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

// n atoms uniformly in a ball of radius R about `centre`, occupancy weights
// uniform in [w_min, 1] (std::mt19937_64, deterministic for a seed).
AtomSoA random_ball(std::size_t n, double radius, Vec3 centre, std::uint64_t seed, double w_min = 0.5);
// n random scattering vectors with |q| ≤ qmax; the first is q = 0.
std::vector<Vec3> random_q(std::size_t n, double qmax, std::uint64_t seed);

}  // namespace nanoscatter::test
