// The PDF model as a FitModel (fit_pdf.hpp).
#include <algorithm>
#include <numbers>

#include "nanoscatter/fit_pdf.hpp"

namespace nanoscatter::fit {

PdfFitModel::PdfFitModel(PdfModel model, std::vector<double> r)
    : model_(std::move(model)), r_(std::move(r)), parameters_(model_.default_parameters()) {
  if (r_.empty()) fail("PdfFitModel: no r points to fit");
}

std::vector<std::string> PdfFitModel::paths() const {
  std::vector<std::string> out{"delta1", "delta2", "qdamp", "qbroad", "lattice_expansion", "sphere_radius",
                               "sphere_sigma"};
  for (const auto& s : model_.species()) {
    out.push_back("u[" + s + "]");
    out.push_back("b[" + s + "]");
  }
  return out;
}

void PdfFitModel::set(const std::string& path, double value) {
  if (path == "delta1") parameters_.delta1 = value;
  else if (path == "delta2") parameters_.delta2 = value;
  else if (path == "qdamp") parameters_.qdamp = value;
  else if (path == "qbroad") parameters_.qbroad = value;
  else if (path == "lattice_expansion") parameters_.lattice_expansion = value;
  else if (path == "sphere_radius") parameters_.sphere_radius = value;
  else if (path == "sphere_sigma") parameters_.sphere_sigma = value;
  else {
    const auto& species = model_.species();
    for (std::size_t m = 0; m < species.size(); ++m) {
      if (path == "u[" + species[m] + "]") return void(parameters_.u[m] = value);
      if (path == "b[" + species[m] + "]") return void(parameters_.u[m] = value / (8 * std::numbers::pi * std::numbers::pi));
    }
    fail_option(path, "not a path of the PDF model (delta1, delta2, qdamp, qbroad, lattice_expansion, sphere_radius, sphere_sigma, u[X], b[X])");
  }
}

void PdfFitModel::evaluate(std::span<double> out) {
  if (out.size() != r_.size()) fail("PdfFitModel::evaluate: output of ", out.size(), " values for ", r_.size(), " r points");
  const std::vector<double> g = model_.evaluate(parameters_, r_);
  std::copy(g.begin(), g.end(), out.begin());
}

}  // namespace nanoscatter::fit
