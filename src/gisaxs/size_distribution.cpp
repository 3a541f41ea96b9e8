#include "gisaxs/size_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace nanoscatter::gisaxs {

std::vector<DistributionPoint> sample_distribution(const SampledDistribution& d, double nominal) {
  if (d.samples <= 1 || d.width == 0) return {{nominal, 1.0}};
  double lo = 0, hi = 0;
  if (d.kind == DistributionKind::gaussian) {
    lo = nominal - d.sigma_factor * d.width;
    hi = nominal + d.sigma_factor * d.width;
  } else {
    lo = nominal * std::exp(-d.sigma_factor * d.width);
    hi = nominal * std::exp(d.sigma_factor * d.width);
  }
  // BornAgain's IDistribution1D::adjustMinMaxForLimits: the range is clipped,
  // the samples stay equidistant over what is left.
  if (d.min) lo = std::max(lo, *d.min);
  if (d.max) hi = std::min(hi, *d.max);
  std::vector<DistributionPoint> points(d.samples);
  double total = 0;
  for (int i = 0; i < d.samples; ++i) {
    const double x = lo + (hi - lo) * i / (d.samples - 1);
    double density = 0;
    if (d.kind == DistributionKind::gaussian) {
      const double u = (x - nominal) / d.width;
      density = std::exp(-0.5 * u * u) / (d.width * std::sqrt(2 * std::numbers::pi));
    } else {
      const double u = std::log(x / nominal) / d.width;
      density = std::exp(-0.5 * u * u) / (x * d.width * std::sqrt(2 * std::numbers::pi));
    }
    points[i] = {x, density};
    total += density;
  }
  for (auto& p : points) p.weight /= total;
  return points;
}

std::vector<SampledShape> sample_shapes(const ParticleSpec& particle) {
  std::vector<SampledShape> shapes{{particle.parameters, 1.0}};
  for (const SizeDistribution& d : particle.distributions) {
    std::vector<SampledShape> next;
    for (const SampledShape& s : shapes)
      for (const DistributionPoint& p : sample_distribution(d, particle.parameters[d.parameter])) {
        SampledShape t = s;
        t.parameters[d.parameter] = p.value;
        t.weight *= p.weight;
        next.push_back(std::move(t));
      }
    shapes = std::move(next);
  }
  return shapes;
}

}  // namespace nanoscatter::gisaxs
