// The PDF model (pdf_model.hpp) as a FitModel: one row, one column per r
// point of the fitted range. Paths (docs/fitting.md, "PDF fits"):
//   delta1 (Å), delta2 (Å²), qdamp (Å⁻¹), qbroad (Å⁻¹),
//   lattice_expansion (ε: distances times 1 + ε),
//   sphere_radius (median particle radius, Å; bulk envelope; 0: off) and
//   sphere_sigma (σ of ln R, number distribution; 0: monodisperse),
//   u[X] (Uiso of species X, Å²) and b[X] (the same as B = 8π² U, Å²),
// with X a species label of the structure ("Ni", "Co", "O", "Fe2+").
// The scale s of PDFfit2 is the fit's own "scale" (fit.hpp: μ = s μ₀ + b).
#pragma once
#include <string>
#include <vector>

#include "nanoscatter/fit.hpp"
#include "nanoscatter/pdf_model.hpp"

namespace nanoscatter::fit {

class PdfFitModel : public FitModel {
 public:
  PdfFitModel(PdfModel model, std::vector<double> r);

  std::vector<std::string> paths() const override;
  void set(const std::string& path, double value) override;
  std::size_t rows() const override { return 1; }
  std::size_t cols() const override { return r_.size(); }
  void evaluate(std::span<double> out) override;

  const PdfModel& model() const { return model_; }
  const PdfParameters& parameters() const { return parameters_; }
  const std::vector<double>& r() const { return r_; }

 private:
  PdfModel model_;
  std::vector<double> r_;
  PdfParameters parameters_;
};

}  // namespace nanoscatter::fit
