// The file of a Mie run, written by the library so that the CLI and Python
// write the same one: the Mueller elements against θ as a text table whose
// header carries the run's record.
#pragma once
#include <string>

#include "nanoscatter/mie.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter {

// Checked before any work: a text file name (.dat, .txt, .csv) in an
// existing directory; errors name the path and `output`.
void check_mie_output(const std::string& path);

// Columns theta (degrees), s11, s12, s33, s34.
void write_mie_mueller(const std::string& path, const MieMuellerTable& table, const RunRecord& record);

}  // namespace nanoscatter
