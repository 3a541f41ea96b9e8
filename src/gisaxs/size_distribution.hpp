// Sampling of size distributions (BornAgain's ParameterDistribution with
// DistributionGaussian / DistributionLogNormal and equidistant points).
#pragma once
#include <vector>

#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

struct DistributionPoint {
  double value = 0;
  double weight = 0;  // normalised over the distribution's points
};
// `nominal` is the mean (Gaussian) or the median (log-normal). One sample or
// zero width give the nominal value alone. Limits clip the range (validate
// checks that something is left).
std::vector<DistributionPoint> sample_distribution(const SampledDistribution& d, double nominal);

// A particle with every distributed parameter fixed, and its share of the
// particle's abundance (the product of the distributions' weights).
struct SampledShape {
  std::vector<double> parameters;
  double weight = 1;
};
std::vector<SampledShape> sample_shapes(const ParticleSpec& particle);

}  // namespace nanoscatter::gisaxs
