// 1D lattice with a decay function (BornAgain's InterferenceFunction1DLattice):
//   S(q) = (1/a) Σ_G Φ(q₁ − G),  G = 2πm/a,  q₁ = q_x cos ξ + q_y sin ξ,
// Φ the decay function's transform; the sum runs over the 2n_a + 1 points
// nearest to q₁, n_a = max(4, round(20 a/(2πλ) + 1/2)), as BornAgain's does,
// so that the truncation of slowly decaying (Cauchy) tails is the same.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {

namespace {

// BornAgain's reach of the reciprocal sums: q λ ≤ 20, at least 4 points.
constexpr double kDecayReach = 20;
constexpr int kMinPoints = 4;

class Lattice1DFunction final : public InterferenceFunction {
 public:
  explicit Lattice1DFunction(const Lattice1D& s) : s_(s) {
    const double qa_max = s_.length * kDecayReach / s_.decay.length / (2 * std::numbers::pi);
    n_ = std::max(static_cast<int>(std::lround(std::abs(qa_max) + 0.5)), kMinPoints);
  }
  void evaluate(std::span<const double> qx, std::span<const double> qy, std::span<double> out) const override {
    const double a_rec = 2 * std::numbers::pi / s_.length;
    const double c = std::cos(s_.xi), s = std::sin(s_.xi);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const double q = qx[i] * c + qy[i] * s;
      const double frac = q - static_cast<int>(q / a_rec) * a_rec;
      double sum = 0;
      for (int m = -n_; m <= n_; ++m) sum += ft_decay(s_.decay, frac + m * a_rec);
      out[i] = sum / s_.length;
    }
  }

 private:
  Lattice1D s_;
  int n_ = kMinPoints;
};

}  // namespace

std::unique_ptr<InterferenceFunction> make_lattice_1d(const Lattice1D& spec) {
  return std::make_unique<Lattice1DFunction>(spec);
}

}  // namespace nanoscatter::gisaxs
