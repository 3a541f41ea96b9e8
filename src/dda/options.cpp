// DdaOptions::validate: every check of a DDA run's options, once (the CLI
// and Python only map flags and keywords onto the fields). Messages name the
// field as the user knows it (ADDA's option names: pol, iter, sym where the
// field's name differs).
#include <cmath>
#include <optional>

#include "nanoscatter/constants.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

namespace {

// Domains are numbered in a uint8 (DdaGeometry::material).
constexpr std::size_t kMaxDomains = 255;

void check_positive(const char* field, const std::optional<double>& v) {
  if (v && !(*v > 0 && std::isfinite(*v))) fail_option(field, "must be > 0, got ", *v);
}

}  // namespace

bool parse_dda_symmetry(const std::string& name) {
  if (name == "auto") return true;
  if (name == "no") return false;
  fail_option("sym", "expected auto or no, got '", name, "'");
}

void DdaOptions::validate() const {
  if (!(lambda > 0) || !std::isfinite(lambda)) fail_option("wavelength", "must be a finite wavelength > 0, got ", lambda);
  // The interaction terms scale as k³ = (2π/λ)³: it must be a normal number,
  // or every term (and the right-hand side) over- or underflows.
  const double k = 2 * kPi / lambda;
  if (!(std::isnormal(k * k * k) && std::isfinite(k * k * k)))
    fail_option("wavelength", "(2π/λ)³ lies outside the range of numbers for λ = ", lambda, "; choose another length unit");
  if (m.empty()) fail_option("m", "at least one refractive index is required");
  if (m.size() > kMaxDomains) fail_option("m", "at most ", kMaxDomains, " refractive indices");
  for (const auto& mi : m) {
    if (!std::isfinite(mi.real()) || !std::isfinite(mi.imag()))
      fail_option("m", "refractive index must be finite, got ", mi.real(), " ", mi.imag());
    if (mi.imag() < 0) fail_option("m", "Im(m) must be ≥ 0 (absorbing media have Im(m) > 0), got ", mi.imag());
    // Re(m) ≤ 0 is no medium the DDA describes, and m² must not overflow (|m| = 1e300).
    if (!(mi.real() > 0)) fail_option("m", "Re(m) must be > 0, got ", mi.real());
    if (!std::isfinite(std::norm(mi))) fail_option("m", "|m|² overflows for m = ", mi.real(), " ", mi.imag());
    if (std::abs(mi * mi + 2.0) == 0) fail_option("m", "m² = −2 has no Clausius–Mossotti polarizability");
  }
  if (!grid.empty() && grid.size() != 1 && grid.size() != 3)
    fail_option("grid", "expected 1 or 3 values, got ", grid.size());
  // (make_dda_shape checks the upper limits, with the shape's own box.)
  for (int g : grid)
    if (g < 1) fail_option("grid", "must be ≥ 1, got ", g);
  check_positive("size", size);
  check_positive("eq_rad", eq_rad);
  check_positive("dpl", dpl);
  if (size && eq_rad) fail_option("eq_rad", "--size and --eq-rad cannot be used together");
  if (dpl && !grid.empty() && (size || eq_rad))
    fail_option("dpl", "too much information: --dpl, --grid and --", size ? "size" : "eq-rad");
  if (!(eps > 0 && eps < 1)) fail_option("eps", "must lie in (0, 1), got ", eps);
  if (maxiter && *maxiter < 1) fail_option("maxiter", "must be ≥ 1, got ", *maxiter);
  if (ntheta < 0 || ntheta == 1) fail_option("ntheta", "must be ≥ 2, got ", ntheta);
  if (grid_phi < 0) fail_option("grid_phi", "must be ≥ 1, got ", grid_phi);
  compute.validate();
}

}  // namespace nanoscatter
