#include <cmath>
#include <vector>

#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {

double Lattice2DGeometry::cell_area() const { return std::abs(length_1 * length_2 * std::sin(angle)); }

namespace {

// BornAgain's PositionVariance: S → 1 + exp(−q∥² ⟨u²⟩)(S − 1).
class PositionVariance final : public InterferenceFunction {
 public:
  PositionVariance(std::unique_ptr<InterferenceFunction> inner, double variance)
      : inner_(std::move(inner)), variance_(variance) {}
  void evaluate(std::span<const double> qx, std::span<const double> qy, std::span<double> out) const override {
    inner_->evaluate(qx, qy, out);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = 1.0 + std::exp(-(qx[i] * qx[i] + qy[i] * qy[i]) * variance_) * (out[i] - 1.0);
  }

 private:
  std::unique_ptr<InterferenceFunction> inner_;
  double variance_;
};

struct Maker {
  std::unique_ptr<InterferenceFunction> operator()(const NoInterference&) const { return nullptr; }
  std::unique_ptr<InterferenceFunction> operator()(const RadialParacrystal& s) const {
    return make_radial_paracrystal(s);
  }
  std::unique_ptr<InterferenceFunction> operator()(const Paracrystal1D& s) const { return make_paracrystal_1d(s); }
  std::unique_ptr<InterferenceFunction> operator()(const Paracrystal2D& s) const { return make_paracrystal_2d(s); }
  std::unique_ptr<InterferenceFunction> operator()(const Lattice1D& s) const { return make_lattice_1d(s); }
  std::unique_ptr<InterferenceFunction> operator()(const Lattice2D& s) const { return make_lattice_2d(s); }
};

}  // namespace

std::unique_ptr<InterferenceFunction> make_interference(const Interference& spec, double position_variance) {
  auto f = std::visit(Maker{}, spec);
  if (f && position_variance > 0) f = std::make_unique<PositionVariance>(std::move(f), position_variance);
  return f;
}

}  // namespace nanoscatter::gisaxs
