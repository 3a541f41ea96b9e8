// Fourier-transformed probability densities and decay functions, with
// BornAgain's normalisations (FTDistributions1D/2D, FTDecay1D/2D).
#include <cmath>
#include <numbers>

#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {

namespace {
double mix(ProfileKind kind, double eta, double gauss, double cauchy) {
  switch (kind) {
    case ProfileKind::gauss: return gauss;
    case ProfileKind::cauchy: return cauchy;
    case ProfileKind::voigt: return eta * gauss + (1 - eta) * cauchy;
  }
  return gauss;
}
}  // namespace

double ft_distribution(const Distribution1D& d, double q) {
  const double x2 = q * q * d.omega * d.omega;
  return mix(d.kind, d.eta, std::exp(-x2 / 2), 1.0 / (1.0 + x2));
}

double ft_distribution(const Distribution2D& d, double q1, double q2) {
  const double x2 = q1 * q1 * d.omega_x * d.omega_x + q2 * q2 * d.omega_y * d.omega_y;
  return mix(d.kind, d.eta, std::exp(-x2 / 2), std::pow(1.0 + x2, -1.5));
}

double ft_decay(const Decay1D& d, double q) {
  const double x2 = q * q * d.length * d.length;
  return mix(d.kind, d.eta, d.length * std::sqrt(2 * std::numbers::pi) * std::exp(-x2 / 2),
             2 * d.length / (1 + x2));
}

double ft_decay(const Decay2D& d, double qX, double qY) {
  const double x2 = qX * qX * d.length_x * d.length_x + qY * qY * d.length_y * d.length_y;
  return 2 * std::numbers::pi * d.length_x * d.length_y *
         mix(d.kind, d.eta, std::exp(-x2 / 2), std::pow(1.0 + x2, -1.5));
}

}  // namespace nanoscatter::gisaxs
