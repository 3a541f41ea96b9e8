// MieOptions: every check of a `nanoscatter mie` run's options, once (the
// CLI and Python only map flags and keywords onto the fields), and the run
// they describe.
#include <cmath>

#include "mie/checks.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/mie.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter {

void MieOptions::validate() const {
  if (bool(x) == bool(radius)) fail_option("x", "give either --x or --radius (with --wavelength)");
  if (x) mie::check_size_parameter(*x, {"", 0, "x", true});
  if (radius && !(*radius > 0 && std::isfinite(*radius))) fail_option("radius", "must be > 0, got ", *radius);
  if (!(lambda > 0 && std::isfinite(lambda))) fail_option("wavelength", "must be > 0, got ", lambda);
  mie::check_refractive_index(m, {"", 0, "m", true});
  if (bool(core_ratio) != bool(m_core)) fail_option("m_core", "--core-ratio and --m-core go together");
  if (core_ratio && !(*core_ratio >= 0 && *core_ratio <= 1))
    fail_option("core_ratio", "must lie in [0, 1], got ", *core_ratio);
  if (m_core) mie::check_refractive_index(*m_core, {"", 0, "m_core", true});
  if (ntheta < 0 || ntheta == 1) fail_option("ntheta", "must be ≥ 2, got ", ntheta);
  // Per angle: θ and the amplitudes S1, S2 (complex), a lower bound of the
  // result's size; the count comes from the user.
  constexpr double kMinBytesPerAngle = sizeof(double) + 4 * sizeof(double);
  require_host_memory({"", 0, "ntheta", true}, detail::concat(ntheta, " angles"), ntheta * kMinBytesPerAngle);
}

double MieOptions::size_parameter() const { return x ? *x : 2 * kPi * radius.value_or(0) / lambda; }

std::vector<double> MieOptions::angles() const {
  if (!theta.empty()) return theta;
  std::vector<double> grid;
  for (int i = 0; i < ntheta; ++i) grid.push_back(180.0 * i / (ntheta - 1));
  return grid;
}

MieResult mie_scatter(const MieOptions& o) {
  o.validate();
  const double x = o.size_parameter();
  return o.core_ratio ? mie_coated_sphere(*o.core_ratio * x, x, *o.m_core, o.m) : mie_sphere(x, o.m);
}

}  // namespace nanoscatter
