// The PDF from pair histograms already made (the plan's, in histogram mode,
// or pair_distribution's own), so that `debye --method histogram --pdf`
// histograms the pairs once.
#pragma once
#include <vector>

#include "debye/pair_sums.hpp"
#include "debye/species.hpp"
#include "nanoscatter/debye_pdf.hpp"

namespace nanoscatter::debye {

// hist: per species pair (pair_index order), with options.bin_width; added
// over the parts of a work share by `combine` when it is set.
PdfResult pdf_from_histograms(const SpeciesBlocks& species, std::vector<PairHistogram> hist,
                              const DebyeOptions& options, const PdfOptions& pdf, const HistogramCombiner& combine);

}  // namespace nanoscatter::debye
