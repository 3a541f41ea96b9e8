// 2D lattice with a decay function (BornAgain's InterferenceFunction2DLattice):
//   S(q) = (1/A) Σ_G Φ(R_γ (q − G)),
// the sum over reciprocal vectors G = i a* + j b* near q (in the frame where
// a lies along x), Φ the 2D decay transform in its axes rotated by γ. The
// window (|i| ≤ n_a + 1, |j| ≤ n_b + 1, n from q λ ≤ 20, at least 4) is
// BornAgain's, so that truncated Cauchy tails match.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "gisaxs/interference/interference.hpp"

namespace nanoscatter::gisaxs {

namespace {

constexpr double kDecayReach = 20;
constexpr int kMinPoints = 4;

class Lattice2DFunction final : public InterferenceFunction {
 public:
  explicit Lattice2DFunction(const Lattice2D& s) : s_(s) {
    const auto& l = s_.lattice;
    const double two_pi = 2 * std::numbers::pi;
    // Reciprocal basis for a = (L1, 0), b = L2 (cos α, sin α).
    a_star_x_ = two_pi / l.length_1;
    a_star_y_ = -two_pi / l.length_1 * std::cos(l.angle) / std::sin(l.angle);
    b_star_x_ = 0;
    b_star_y_ = two_pi / (l.length_2 * std::sin(l.angle));
    // Reciprocal-lattice coordinates of the decay's reach (BornAgain's
    // boundingReciprocalLatticeCoordinates).
    const double qX = kDecayReach / s_.decay.length_x, qY = kDecayReach / s_.decay.length_y;
    const double g = s_.decay.gamma;
    auto coords = [&](double x, double y) {
      return std::pair{(l.length_1 * x * std::cos(g) - l.length_1 * y * std::sin(g)) / two_pi,
                       (l.length_2 * x * std::cos(l.angle - g) + l.length_2 * y * std::sin(l.angle - g)) / two_pi};
    };
    const auto [a1, b1] = coords(qX, qY);
    const auto [a2, b2] = coords(qX, -qY);
    na_ = std::max(static_cast<int>(std::lround(std::max(std::abs(a1), std::abs(a2)) + 0.5)), kMinPoints);
    nb_ = std::max(static_cast<int>(std::lround(std::max(std::abs(b1), std::abs(b2)) + 0.5)), kMinPoints);
    density_ = 1.0 / l.cell_area();
  }
  void evaluate(std::span<const double> qx, std::span<const double> qy, std::span<double> out) const override {
    const auto& l = s_.lattice;
    const double two_pi = 2 * std::numbers::pi;
    const double cx = std::cos(l.xi), sx = std::sin(l.xi);
    const double cg = std::cos(s_.decay.gamma), sg = std::sin(s_.decay.gamma);
    for (std::size_t n = 0; n < out.size(); ++n) {
      const double x = qx[n] * cx + qy[n] * sx;
      const double y = -qx[n] * sx + qy[n] * cx;
      const long ia = std::lround(l.length_1 * x / two_pi);
      const long ib = std::lround(l.length_2 * (x * std::cos(l.angle) + y * std::sin(l.angle)) / two_pi);
      const double fx = x - ia * a_star_x_ - ib * b_star_x_;
      const double fy = y - ia * a_star_y_ - ib * b_star_y_;
      double sum = 0;
      for (int i = -na_ - 1; i <= na_ + 1; ++i)
        for (int j = -nb_ - 1; j <= nb_ + 1; ++j) {
          const double gx = fx + i * a_star_x_ + j * b_star_x_;
          const double gy = fy + i * a_star_y_ + j * b_star_y_;
          sum += ft_decay(s_.decay, gx * cg + gy * sg, -gx * sg + gy * cg);
        }
      out[n] = density_ * sum;
    }
  }

 private:
  Lattice2D s_;
  double a_star_x_, a_star_y_, b_star_x_, b_star_y_;
  int na_ = kMinPoints, nb_ = kMinPoints;
  double density_ = 0;
};

}  // namespace

std::unique_ptr<InterferenceFunction> make_lattice_2d(const Lattice2D& spec) {
  return std::make_unique<Lattice2DFunction>(spec);
}

}  // namespace nanoscatter::gisaxs
