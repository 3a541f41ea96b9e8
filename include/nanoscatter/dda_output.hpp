// Files of a DDA run, written by the library so that the CLI and Python
// write the same ones: ADDA's files in one directory (CrossSec-Y/X, mueller,
// mueller_scatgrid, IntField-*/DipPol-*, log; formats of ADDA CalculateE.c
// and io.c, so ADDA's post-processing reads them) and, on request, the
// dipole set as an ADDA shape file. The log and the shape file begin with
// the run's record; each file is written through AtomicOutput.
#pragma once
#include <filesystem>
#include <string>

#include "nanoscatter/dda.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter {

struct DdaOutput {
  std::string output_dir;  // made when missing
  std::string save_geom;   // "": none; a bare file name goes into output_dir, a path is taken as given

  // Before any work, so that bad input leaves no file: output_dir is given
  // and can be written (check_output_directory), save_geom's directory exists. Errors name the path and
  // the option (output_dir, save_geom).
  void validate() const;
  std::filesystem::path geometry_path() const;  // where save_geom is written
};

// The files of `result`, which `plan` computed; output_dir is made first.
void write_dda(const DdaOutput& output, const DdaPlan& plan, const DdaResult& result, const RunRecord& record);

}  // namespace nanoscatter
