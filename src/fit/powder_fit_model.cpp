// The powder pattern as a FitModel (fit_powder.hpp).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "nanoscatter/fit_powder.hpp"

namespace nanoscatter::fit {

namespace {

std::string phase_prefix(std::size_t k) { return "phase[" + std::to_string(k) + "]."; }

}  // namespace

PowderFitModel::PowderFitModel(PowderPattern pattern, std::size_t background_terms, PowderProfile profile)
    : PowderFitModel(std::vector<PowderPattern>{std::move(pattern)}, background_terms, profile) {
  prefixed_ = false;
}

PowderFitModel::PowderFitModel(std::vector<PowderPattern> phases, std::size_t background_terms, PowderProfile profile)
    : prefixed_(true) {
  if (phases.empty()) fail_option("phase", "a powder fit needs at least one phase");
  for (PowderPattern& p : phases) {
    if (!phases_.empty() && p.two_theta() != phases_.front().pattern.two_theta())
      fail("PowderFitModel: the phases' 2θ points differ");
    PowderParameters start = p.model().default_parameters();
    phases_.push_back({std::move(p), std::move(start), 1.0});
  }
  instrument_.profile = profile;
  instrument_.background.assign(background_terms, 0.0);
}

std::vector<std::string> PowderFitModel::phase_paths(const Phase& phase) const {
  std::vector<std::string> out{"lattice_expansion"};
  if (prefixed_) out.push_back("scale");
  if (phase.pattern.model().size()) out.push_back("size_median"), out.push_back("size_sigma");
  for (const auto& s : phase.pattern.model().species()) {
    out.push_back("b[" + s + "]");
    out.push_back("u[" + s + "]");
  }
  return out;
}

std::vector<std::string> PowderFitModel::paths() const {
  std::vector<std::string> out{"zero", "u", "v", "w"};
  if (instrument_.profile == PowderProfile::tch) out.push_back("x"), out.push_back("y");
  else out.push_back("eta");
  for (std::size_t k = 0; k < phases_.size(); ++k)
    for (const std::string& p : phase_paths(phases_[k])) out.push_back(prefixed_ ? phase_prefix(k) + p : p);
  for (std::size_t k = 0; k < instrument_.background.size(); ++k) out.push_back("bkg[" + std::to_string(k) + "]");
  return out;
}

bool PowderFitModel::set_phase(Phase& phase, const std::string& path, double value) {
  PowderParameters& p = phase.parameters;
  const bool sized = phase.pattern.model().size().has_value();
  if (path == "lattice_expansion") p.lattice_expansion = value;
  else if (prefixed_ && path == "scale") phase.scale = value;
  else if (sized && path == "size_median") p.size_median = value;
  else if (sized && path == "size_sigma") p.size_sigma = value;
  else {
    const auto& species = phase.pattern.model().species();
    for (std::size_t m = 0; m < species.size(); ++m) {
      if (path == "b[" + species[m] + "]") return p.b[m] = value, true;
      if (path == "u[" + species[m] + "]") return p.b[m] = 8 * std::numbers::pi * std::numbers::pi * value, true;
    }
    return false;
  }
  return true;
}

void PowderFitModel::set(const std::string& path, double value) {
  const bool tch = instrument_.profile == PowderProfile::tch;
  if (path == "zero") return void(instrument_.zero = value);
  if (path == "u") return void(instrument_.u = value);
  if (path == "v") return void(instrument_.v = value);
  if (path == "w") return void(instrument_.w = value);
  if (!tch && path == "eta") return void(instrument_.eta = value);
  if (tch && path == "x") return void(instrument_.x = value);
  if (tch && path == "y") return void(instrument_.y = value);
  for (std::size_t k = 0; k < instrument_.background.size(); ++k)
    if (path == "bkg[" + std::to_string(k) + "]") return void(instrument_.background[k] = value);
  for (std::size_t k = 0; k < phases_.size(); ++k) {
    const std::string prefix = prefixed_ ? phase_prefix(k) : "";
    if (path.rfind(prefix, 0) == 0 && set_phase(phases_[k], path.substr(prefix.size()), value)) return;
  }
  fail_option(path, "not a path of the powder model (zero, u, v, w, ", tch ? "x, y" : "eta", ", bkg[k]; ",
              prefixed_ ? "phase[k]. followed by scale, " : "", "lattice_expansion, b[X], u[X]; size_median, "
              "size_sigma with a size distribution)");
}

void PowderFitModel::evaluate(std::span<double> out) {
  if (out.size() != cols()) fail("PowderFitModel::evaluate: output of ", out.size(), " values for ", cols(), " 2θ points");
  // The background once, not per phase: each phase without it.
  InstrumentParameters bare = instrument_;
  bare.background.clear();
  std::fill(out.begin(), out.end(), 0.0);
  for (Phase& phase : phases_) {
    if (!std::isfinite(phase.scale)) fail_option("scale", "a phase's scale must be finite, got ", phase.scale);
    const std::vector<double> y = phase.pattern.evaluate(phase.parameters, bare);
    for (std::size_t i = 0; i < y.size(); ++i) out[i] += phase.scale * y[i];
  }
  const std::vector<double> background = chebyshev_background(instrument_.background, phases_.front().pattern.two_theta());
  for (std::size_t i = 0; i < background.size(); ++i) out[i] += background[i];
}

}  // namespace nanoscatter::fit
