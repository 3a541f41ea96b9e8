// Files of a pattern2d run, written by the library so that the CLI and
// Python write the same ones: HDF5 (everything), text (one row per pixel) or
// a log-scale PNG quick look, from the extension, each with the run's record.
#pragma once
#include <string>
#include <vector>

#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter {

// The files a run will write, checked before any work so that a bad name
// costs nothing and leaves no file: `output` (HDF5, text or PNG from its
// extension; a PNG cannot hold the amplitude that options.amplitude asks
// for) and `png` (the extra quick look, a .png); "" for none. Errors name
// the file and the option at fault ("output", "png", "amplitude").
void check_pattern2d_outputs(const std::string& output, const std::string& png, const Pattern2DOptions& options);

// What a pattern2d run records about itself after the title, command and
// version: the structure ("name (title)"), atoms, radiation, wavelength,
// beam, curvature and detector, Debye–Waller (stated only where some atom
// has B ≠ 0: b_factors), precision and device, time.
std::vector<std::string> pattern2d_run_lines(const std::string& structure_name, const std::string& structure_title,
                                             bool b_factors,
                                             const Pattern2DResult& result, const Pattern2DGeometry& geometry,
                                             const Pattern2DOptions& options);

// One file, in the format its extension asks for (errors name "output"):
// - HDF5: /intensity [rows][cols], /q [rows][cols][3] (lab frame, Å⁻¹),
//   /axes/<row_name>, /axes/<col_name>, /amplitude [rows][cols] (complex,
//   when present); on "/" the record's header lines (header_0, …) and
//   attributes describing the geometry and options.
// - Text: the header lines, then one row per pixel: polar "q phi qx qy qz I",
//   flat "x y qx qy qz I", plus "A_re A_im" with an amplitude.
// - PNG: a log-scale picture. A flat detector is drawn as it is (y up); a
//   polar grid is resampled (bilinear in |q| and φ) onto a square picture of
//   the detector plane, qx to the right and qy up, pixels beyond qmax at the
//   lowest colour; the header lines as text entries.
void write_pattern2d(const std::string& path, const Pattern2DResult& result, const RunRecord& record,
                     const Pattern2DGeometry& geometry, const Pattern2DOptions& options);

}  // namespace nanoscatter
