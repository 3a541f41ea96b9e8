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

// hist: per species pair (pair_index order), with options.bin_width; added
// over the parts of a work share by `combine` when it is set.
PdfResult pdf_from_histograms(const SpeciesBlocks& species, std::vector<PairHistogram> hist,
                              const DebyeOptions& options, const PdfOptions& pdf, const HistogramCombiner& combine);

}  // namespace nanoscatter::debye
