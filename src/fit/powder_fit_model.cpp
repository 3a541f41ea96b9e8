// The powder pattern as a FitModel (fit_powder.hpp).
#include <algorithm>
#include <numbers>

#include "nanoscatter/fit_powder.hpp"

namespace nanoscatter::fit {

PowderFitModel::PowderFitModel(PowderPattern pattern, std::size_t background_terms)
    : pattern_(std::move(pattern)), parameters_(pattern_.model().default_parameters()) {
  instrument_.background.assign(background_terms, 0.0);
}

std::vector<std::string> PowderFitModel::paths() const {
  std::vector<std::string> out{"lattice_expansion", "zero", "u", "v", "w", "eta"};
  if (pattern_.model().size()) out.push_back("size_median"), out.push_back("size_sigma");
  for (const auto& s : pattern_.model().species()) {
    out.push_back("b[" + s + "]");
    out.push_back("u[" + s + "]");
  }
  for (std::size_t k = 0; k < instrument_.background.size(); ++k) out.push_back("bkg[" + std::to_string(k) + "]");
  return out;
}

void PowderFitModel::set(const std::string& path, double value) {
  if (path == "lattice_expansion") parameters_.lattice_expansion = value;
  else if (path == "zero") instrument_.zero = value;
  else if (path == "u") instrument_.u = value;
  else if (path == "v") instrument_.v = value;
  else if (path == "w") instrument_.w = value;
  else if (path == "eta") instrument_.eta = value;
  else if (pattern_.model().size() && path == "size_median") parameters_.size_median = value;
  else if (pattern_.model().size() && path == "size_sigma") parameters_.size_sigma = value;
  else {
    const auto& species = pattern_.model().species();
    for (std::size_t m = 0; m < species.size(); ++m) {
      if (path == "b[" + species[m] + "]") return void(parameters_.b[m] = value);
      if (path == "u[" + species[m] + "]") return void(parameters_.b[m] = 8 * std::numbers::pi * std::numbers::pi * value);
    }
    for (std::size_t k = 0; k < instrument_.background.size(); ++k)
      if (path == "bkg[" + std::to_string(k) + "]") return void(instrument_.background[k] = value);
    fail_option(path, "not a path of the powder model (lattice_expansion, zero, u, v, w, eta, b[X], u[X], bkg[k]; "
                "size_median, size_sigma with a size distribution)");
  }
}

void PowderFitModel::evaluate(std::span<double> out) {
  if (out.size() != cols()) fail("PowderFitModel::evaluate: output of ", out.size(), " values for ", cols(), " 2θ points");
  const std::vector<double> y = pattern_.evaluate(parameters_, instrument_);
  std::copy(y.begin(), y.end(), out.begin());
}

}  // namespace nanoscatter::fit
