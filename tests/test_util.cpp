#include "test_util.hpp"

#include "nanoscatter/error.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace nanoscatter::test {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

double max_rel_error_floored(const std::vector<double>& a, const std::vector<double>& reference,
                             double floor_fraction) {
  if (a.size() != reference.size()) throw std::runtime_error("max_rel_error_floored: size mismatch");
  double ref_max = 0, worst = 0;
  for (double r : reference) ref_max = std::max(ref_max, std::abs(r));
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) return INFINITY;
    worst = std::max(worst, std::abs(a[i] - reference[i]) / std::max(std::abs(reference[i]), floor_fraction * ref_max));
  }
  return worst;
}

double max_rel_error(const std::vector<double>& a, const std::vector<double>& reference,
                     double floor_fraction) {
  if (a.size() != reference.size()) throw std::runtime_error("max_rel_error: size mismatch");
  double ref_max = 0;
  for (double r : reference) ref_max = std::max(ref_max, std::abs(r));
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) return INFINITY;
    if (std::abs(reference[i]) <= floor_fraction * ref_max || reference[i] == 0) continue;
    worst = std::max(worst, std::abs(a[i] - reference[i]) / std::abs(reference[i]));
  }
  return worst;
}

double norm_rel_error(const std::vector<double>& a, const std::vector<double>& reference) {
  if (a.size() != reference.size()) throw std::runtime_error("norm_rel_error: size mismatch");
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - reference[i]) * (a[i] - reference[i]);
    den += reference[i] * reference[i];
  }
  return std::sqrt(num / den);
}

TempDir::TempDir(const std::string& name) {
  path_ = std::filesystem::temp_directory_path() /
          ("nanoscatter-test-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

CommandResult run_command(const std::string& command_line) {
  CommandResult result{0, {}};
  FILE* pipe = popen((command_line + " 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed");
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe)) result.output += buf.data();
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

CommandResult run_cli(const std::string& arguments) {
  return run_command(std::string(NS_CLI_PATH) + " " + arguments);
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

AtomSoA random_ball(std::size_t n, double radius, Vec3 centre, std::uint64_t seed, double w_min) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), w(w_min, 1.0);
  AtomSoA a;
  while (a.size() < n) {
    const double x = u(rng), y = u(rng), z = u(rng);
    if (x * x + y * y + z * z > 1) continue;
    a.x.push_back(centre.x + radius * x);
    a.y.push_back(centre.y + radius * y);
    a.z.push_back(centre.z + radius * z);
    a.w.push_back(w(rng));
  }
  return a;
}

std::vector<Vec3> random_q(std::size_t n, double qmax, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> q{Vec3{0, 0, 0}};
  while (q.size() < n) {
    const Vec3 v{u(rng), u(rng), u(rng)};
    if (norm(v) <= 1) q.push_back(qmax * v);
  }
  return q;
}

}  // namespace nanoscatter::test
