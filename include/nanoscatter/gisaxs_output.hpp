// Files of a GISAXS run, written by the library so that the CLI and Python
// write the same ones: the image (HDF5, text in BornAgain's layout, or a
// log-scale figure with axes and a colour bar, from the extension) and form-factor volumes (HDF5),
// each with the run's record. Each file appears whole or not at all.
#pragma once
#include <string>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "nanoscatter/io_figure.hpp"
#include "nanoscatter/output_format.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter::gisaxs {

// The formats of an image (HDF5, text, PNG); errors name `option` ("output").
OutputFormat checked_image_output(const std::string& path, const std::string& option);

// What an image run records about itself: sample, beam, detector, layers,
// particle kinds and time.
std::vector<std::string> gisaxs_run_lines(const Sample& sample, const GisaxsResult& result);

// The image, from the extension:
//  * HDF5: /intensity [rows][cols] plus /axes and /pixels maps and attributes;
//  * text in BornAgain's layout: one row per horizontal bin (φ_f), one column
//    per vertical bin (α_f), after '#' header lines that give the axes;
//  * PNG: a figure (io_figure.hpp) of detector_panel on a log scale, titled
//    with the sample file and the approximation, the record in tEXt.
// The title line says which approximation made it.
void write_gisaxs(const std::string& path, const GisaxsResult& result, const RunRecord& record,
                  Approximation approximation);

// An image panel of values on a detector's pixels (rows × cols, the grid's
// layout): axes named with their units (φ_f and α_f in °, q_y and q_z in
// nm⁻¹, x and y in mm), spanning the pixel edges (the outer centres ± half a
// pixel where the grid has no edges), α_f upwards. Titles and the colour
// scale are left to the caller.
ImagePanel detector_panel(const PixelGrid& pixels, std::vector<double> values);

// A form-factor volume's file name (HDF5 only); errors name `option`.
OutputFormat checked_formfactor_output(const std::string& path, const std::string& option);

// What a form-factor run records: sample, grid, device, precision,
// hyperblocks, time.
std::vector<std::string> formfactor_run_lines(const Sample& sample, const FormFactorVolume& volume,
                                              const DeviceOptions& compute);

// HDF5 layout (docs/gisaxs.md): /formfactor [nx][ny][nz] complex128 ({r, i}
// compound, nm³), /qx [nx], /qy [ny], /qz [nz] (nm⁻¹), attributes on
// /formfactor (units, shape, layout) and the record's lines on the root.
// The volume must hold the whole grid (reduce it first under MPI).
void write_formfactor(const std::string& path, const FormFactorVolume& volume, const RunRecord& record);

}  // namespace nanoscatter::gisaxs
