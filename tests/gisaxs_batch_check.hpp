// A fit model's batch of layout edits (GisaxsFitModel::evaluate_batch, which
// runs GisaxsPlan::execute_batch) against the same sets evaluated one after
// the other on a fresh model: the CPU test (tests/physics/test_fit_batch.cpp)
// and the GPU test (tests/gpu/test_gisaxs_analytic_gpu.cpp, one launch).
#pragma once
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "nanoscatter/fit_gisaxs.hpp"

namespace nanoscatter::test {

struct BatchCheck {
  double max_rel = 0;        // batch vs one after the other, relative to max(|I|, 1e-10 max I)
  double last_stays = 0;     // the same for a plain evaluate after the batch (the last set stays set)
  gisaxs::GisaxsPlan::Stats stats;
  std::size_t sets = 0;
};

inline double max_rel_floored(const std::vector<double>& a, const std::vector<double>& b) {
  double hi = 0, worst = 0;
  for (double v : b) hi = std::max(hi, std::abs(v));
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(std::abs(b[i]), 1e-10 * hi));
  return worst;
}

// Drawn sets of a spheres-with-SSCA sample's layout values (radius, peak
// distance, density within ±10 %), several sets per call.
inline BatchCheck check_fit_model_batch(const gisaxs::GisaxsOptions& options, std::mt19937_64& rng) {
  const std::string path = std::string(NS_TEST_DATA_DIR) + "/fit/spheres_ssca.toml";
  const std::vector<std::string> names{"layout[0].particle[0].radius", "layout[0].interference.peak_distance",
                                       "layout[0].density"};
  std::uniform_real_distribution<double> near(0.9, 1.1);
  const std::size_t nsets = std::uniform_int_distribution<std::size_t>(2, 6)(rng);
  std::vector<std::vector<double>> sets;
  for (std::size_t k = 0; k < nsets; ++k) sets.push_back({5.0 * near(rng), 20.0 * near(rng), 0.0025 * near(rng)});

  fit::GisaxsFitModel batch(gisaxs::SampleDocument::read(path), {}, options);
  std::vector<double> image(batch.size());
  batch.evaluate(image);  // the plan exists before the batch, as in a fit
  const std::vector<std::vector<double>> images = batch.evaluate_batch(names, sets);
  BatchCheck c;
  c.sets = nsets;
  c.stats = batch.plan()->stats();
  fit::GisaxsFitModel one(gisaxs::SampleDocument::read(path), {}, options);
  for (std::size_t k = 0; k < nsets; ++k) {
    for (std::size_t j = 0; j < names.size(); ++j) one.set(names[j], sets[k][j]);
    one.evaluate(image);
    c.max_rel = std::max(c.max_rel, max_rel_floored(images[k], image));
  }
  batch.evaluate(image);
  c.last_stays = max_rel_floored(image, images.back());
  return c;
}

}  // namespace nanoscatter::test
