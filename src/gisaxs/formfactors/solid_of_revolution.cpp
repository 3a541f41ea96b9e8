#include "gisaxs/formfactors/solid_of_revolution.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "gisaxs/special_functions.hpp"

namespace nanoscatter::gisaxs::detail {

namespace {
// Nodes beyond the bandwidth (see the header) and the largest rule per panel.
constexpr double kExtraNodes = 16;
constexpr int kMaxNodesPerPanel = 128;
}  // namespace

void SolidOfRevolution::evaluate(std::span<const CVec3> q, std::span<Complex> out) const {
  const double half_height = 0.5 * (z_top_ - z_bottom_);
  std::vector<double> z, weight;
  std::vector<Complex> bessel_part;
  std::size_t i = 0;
  while (i < q.size()) {
    std::size_t end = i + 1;
    while (end < q.size() && q[end].x == q[i].x && q[end].y == q[i].y) ++end;
    const Complex q_par = std::sqrt(q[i].x * q[i].x + q[i].y * q[i].y);
    double qz_max = 0;
    for (std::size_t j = i; j < end; ++j) qz_max = std::max(qz_max, std::abs(q[j].z));
    const double bandwidth = qz_max * half_height + std::abs(q_par) * r_max_;
    const double needed = bandwidth + kExtraNodes;
    const int panels = std::max(1, static_cast<int>(std::ceil(needed / (kMaxNodesPerPanel - kExtraNodes))));
    const GaussRule& rule = gauss_legendre(static_cast<int>(std::ceil(bandwidth / panels + kExtraNodes)));
    const double panel_half = half_height / panels;
    z.clear();
    weight.clear();
    bessel_part.clear();
    for (int p = 0; p < panels; ++p) {
      const double centre = z_bottom_ + (2 * p + 1) * panel_half;
      for (std::size_t k = 0; k < rule.nodes.size(); ++k) {
        const double zk = centre + panel_half * rule.nodes[k];
        const double r2 = std::max(0.0, radius_squared(zk));
        z.push_back(zk);
        bessel_part.push_back(2 * std::numbers::pi * r2 * panel_half * rule.weights[k] *
                              bessel_j1c(q_par * std::sqrt(r2)));
      }
    }
    for (std::size_t j = i; j < end; ++j) {
      Complex sum = 0;
      for (std::size_t k = 0; k < z.size(); ++k) sum += bessel_part[k] * exp_i(q[j].z * z[k]);
      out[j] = sum;
    }
    i = end;
  }
}

}  // namespace nanoscatter::gisaxs::detail
