// The PDF from pair histograms already made (the plan's, in histogram mode,
// or pair_distribution's own), so that `debye --method histogram --pdf`
// histograms the pairs once.
#pragma once
#include <vector>

#include "debye/pair_sums.hpp"
#include "debye/species.hpp"
#include "nanoscatter/debye_pdf.hpp"

namespace nanoscatter::debye {

// Radius of gyration of the atoms (occupancy-weighted, geometric), Å.
double radius_of_gyration(const SpeciesBlocks& species);
// Characteristic function γ0(r) of a sphere of radius R (debye_pdf.hpp).
double sphere_gamma0(double r, double radius);
// The sphere with the atoms' radius of gyration: R = sqrt(5/3) R_g, Å, and
// its number density N/(4πR³/3) (0 for a point), Å⁻³.
struct EquivalentSphere {
  double radius = 0;
  double number_density = 0;
};
EquivalentSphere equivalent_sphere(const SpeciesBlocks& species);

// The weight of a pair histogram's counts in R(r) (PdfResult::rdf, the
// PDF model's peaks): c_mn = 2 Re(f_m f_n*)/(N |⟨f⟩|²) at Q = 0, without
// Debye–Waller (Σ_{i≠j} counts every unordered pair twice; per atom), in
// pair_index order; Error (field "pdf") when ⟨f(0)⟩ = 0.
std::vector<double> pdf_pair_weights(const SpeciesBlocks& species, const DebyeOptions& options);
// Where bin k's pairs sit: its centre plus their mean offset Σwδ/Σw
// (count[k] > 0).
inline double bin_mean_distance(const PairHistogram& h, std::size_t k) {
  return (double(k) + 0.5) * h.bin_width + h.sum_d[k] / h.count[k];
}

// hist: per species pair (pair_index order), with options.bin_width; added
// over the parts of a work share by `combine` when it is set.
PdfResult pdf_from_histograms(const SpeciesBlocks& species, std::vector<PairHistogram> hist,
                              const DebyeOptions& options, const PdfOptions& pdf, const HistogramCombiner& combine);

}  // namespace nanoscatter::debye
