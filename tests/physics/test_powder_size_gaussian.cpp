// The Gaussian size distribution of the powder model (powder_size.hpp,
// distribution = "gaussian"): its bin weights against Φ differences and
// its moments, the model's use of it, and the fit file's key.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "nanoscatter/builder.hpp"
#include "nanoscatter/fit_file.hpp"
#include "nanoscatter/powder_model.hpp"

using namespace nanoscatter;

namespace {

double phi(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

}  // namespace

// w_k = Φ((R_k e^(Δ/2) − m/e)/(σ/e)) − Φ((R_k e^(−Δ/2) − m/e)/(σ/e)); on a
// fine grid spanning −5σ to +6σ the binned distribution has the Gaussian's mean
// and standard deviation (on the unexpanded grid: m/e, σ/e) to the bins'
// resolution; the log-normal of the same grid differs.
TEST(PowderSizeGaussian, BinWeightsAndMoments) {
  SizeDistributionOptions grid;
  grid.r_min = 5, grid.r_max = 60, grid.count = 400, grid.distribution = SizeDistribution::gaussian;
  const double mean = 30, sigma = 5, epsilon = 0.01, e = 1 + epsilon;
  const std::vector<double> w = gaussian_bin_weights(grid, mean, sigma, epsilon);
  const std::vector<double> r = grid.radii();
  const double half = 0.5 * std::log(grid.r_max / grid.r_min) / double(grid.count - 1);
  double total = 0, first = 0, second = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double want = phi((r[k] * std::exp(half) - mean / e) / (sigma / e)) - phi((r[k] * std::exp(-half) - mean / e) / (sigma / e));
    EXPECT_NEAR(w[k], want, 1e-14) << k;
    total += w[k], first += w[k] * r[k], second += w[k] * r[k] * r[k];
  }
  EXPECT_NEAR(total, 1.0, 1e-6);  // the grid starts 5σ below the mean: Φ(−5) = 2.9e-7 is cut
  const double m1 = first / total, sd = std::sqrt(second / total - m1 * m1);
  EXPECT_NEAR(m1, mean / e, 0.01);
  EXPECT_NEAR(sd, sigma / e, 0.01);
  EXPECT_EQ(size_bin_weights(grid, mean, sigma, epsilon), w);
  grid.distribution = SizeDistribution::lognormal;
  EXPECT_EQ(size_bin_weights(grid, mean, 0.2, epsilon), lognormal_bin_weights(grid, mean, 0.2, epsilon));
  EXPECT_THROW(gaussian_bin_weights(grid, mean, 0, 0), Error);
  EXPECT_THROW(gaussian_bin_weights(grid, -1, 1, 0), Error);
  EXPECT_EQ(parse_size_distribution("gaussian"), SizeDistribution::gaussian);
  EXPECT_EQ(parse_size_distribution("lognormal"), SizeDistribution::lognormal);
  EXPECT_THROW(parse_size_distribution("weibull"), Error);
}

// The powder model takes the Gaussian's weights (σ in Å: its default is
// 0.2 m), not the log-normal's.
TEST(PowderSizeGaussian, ModelUsesTheGaussian) {
  LatticeOptions l;
  l.type = LatticeType::rocksalt, l.a = 4.26, l.elements = {"Co", "O"};
  PowderModelOptions o;
  o.size = SizeDistributionOptions{};
  o.size->r_min = 4, o.size->r_max = 9, o.size->count = 6, o.size->distribution = SizeDistribution::gaussian;
  const PowderModel model(cut_crystal(make_lattice(l), Sphere{9.0}), DebyeOptions{}, o);
  PowderParameters p = model.default_parameters();
  EXPECT_NEAR(p.size_sigma, 0.2 * p.size_median, 1e-12);
  p.size_median = 6.5, p.size_sigma = 1.2, p.lattice_expansion = 0.005;
  EXPECT_EQ(model.size_weights(p), gaussian_bin_weights(*o.size, 6.5, 1.2, 0.005));
  const std::vector<double> q{1.0, 2.0, 3.0};
  const std::vector<double> got = model.intensity(p, q);
  const std::vector<double> weights = gaussian_bin_weights(*o.size, 6.5, 1.2, 0.005);
  const std::vector<double> want =
      model.intensity_for_weights(p, weights, q, model.pair_sums_for_weights(weights, 0.005, q), model.factors(q));
  for (std::size_t k = 0; k < q.size(); ++k) EXPECT_DOUBLE_EQ(got[k], want[k]);
  o.size->distribution = SizeDistribution::lognormal;
  const PowderModel lognormal(cut_crystal(make_lattice(l), Sphere{9.0}), DebyeOptions{}, o);
  p.size_sigma = 0.2;
  EXPECT_NE(lognormal.intensity(p, q)[1], model.intensity(p, q)[1]);
}

// size = { ..., distribution = "gaussian" } in a fit file; an unknown one
// is an error at its line.
TEST(PowderSizeGaussian, FitFileKey) {
  const std::string head = "[data]\nfile = \"d.xye\"\n[model]\nengine = \"powder\"\nstructure = \"c.cif\"\n"
                           "two_theta = [20.0, 80.0]\n";
  const fit::FitDescription d = fit::parse_fit_description(
      head + "size = { r_min = 5.0, r_max = 20.0, distribution = \"gaussian\" }\n", "g.toml", "");
  ASSERT_TRUE(d.powder.size);
  EXPECT_EQ(d.powder.size->distribution, SizeDistribution::gaussian);
  const fit::FitDescription plain =
      fit::parse_fit_description(head + "size = { r_min = 5.0, r_max = 20.0 }\n", "l.toml", "");
  EXPECT_EQ(plain.powder.size->distribution, SizeDistribution::lognormal);
  try {
    fit::parse_fit_description(head + "size = { r_min = 5.0, r_max = 20.0, distribution = \"weibull\" }\n", "w.toml", "");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().line, 7);
    EXPECT_NE(std::string(e.what()).find("unknown size distribution 'weibull' (lognormal, gaussian)"), std::string::npos)
        << e.what();
  }
}
