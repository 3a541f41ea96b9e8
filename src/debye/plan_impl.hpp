// DebyePlan's state (api.cpp), shared with the PDF (pdf.cpp reads the
// plan's histograms so that histogram mode with a PDF bins the pairs once).
#pragma once
#include <cstddef>
#include <mutex>
#include <vector>

#include "debye/pair_sums.hpp"
#include "debye/species.hpp"
#include "nanoscatter/debye.hpp"

namespace nanoscatter {

struct DebyePlan::Impl {
  DebyeOptions options;
  debye::SpeciesBlocks species;
  std::size_t atom_count = 0;
  std::vector<debye::PairHistogram> histograms;  // histogram mode, per species pair (m ≤ n)
  // The last Q grid's pair sums (they depend on the atoms and Q, not on the
  // factors), and what the plan has done: execute() may run on several
  // threads (Python releases the GIL), hence the mutex.
  mutable std::mutex cache_mutex;
  mutable std::vector<double> cached_q;
  mutable std::vector<std::vector<double>> cached_sums;
  mutable double cached_pairs = 0;
  mutable Stats stats;
};

}  // namespace nanoscatter
