// ADDA's output files of a DDA result in one directory (formats in
// adda_files.cpp); the log begins with the run's record.
#pragma once
#include <filesystem>

#include "nanoscatter/dda.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter::dda {

// CrossSec-Y/X, mueller (when computed), mueller_scatgrid, IntField-*/DipPol-*
// (store_fields) and log, into the existing directory `dir`.
void write_adda_files(const std::filesystem::path& dir, const DdaResult& result, const DdaOptions& options,
                      const RunRecord& record);

}  // namespace nanoscatter::dda
