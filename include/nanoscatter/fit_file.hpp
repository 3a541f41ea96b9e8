// Fit files (docs/fitting.md): a TOML description of data, model, region,
// mask, parameters, objective and minimiser, read with every problem an
// Error naming file:line and key. Paths inside are relative to the fit
// file's folder. The same description runs from the CLI (`nanoscatter fit`)
// and from Python (ns.fit), which may hand the data as arrays instead.
#pragma once
#include <cstdint>
#include <limits>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/debye.hpp"
#include "nanoscatter/fit.hpp"
#include "nanoscatter/fit_gisaxs.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/mask.hpp"
#include "nanoscatter/pdf_model.hpp"
#include "nanoscatter/powder_model.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter::fit {

// A range [first, last] of pixels ("rows", "cols": [first, end) in
// pixels), of mm from the direct beam ("x_mm", "y_mm", flat detectors) or of
// the model's axis ("horizontal", "vertical", e.g. degrees of φ_f, α_f).
struct RangeSpec {
  std::string key;  // "" = the whole axis
  double first = 0, last = 0;
  Where where;
};

struct FitDescription {
  std::string source;              // the fit file, for messages
  std::filesystem::path base;      // its folder: other paths are relative to it
  // [data]
  std::string data_file;  Where data_where;       // any detector_image.hpp spec ("f.tif", "f.h5:/data")
  std::size_t frame = 0;                          // of a frame stack
  bool top_row_first = true;  Where orientation_where;  // "top" (detectors' storage) or "bottom"
  std::string sigma = "poisson";  Where sigma_where;    // "poisson" or a dataset spec
  // [model]
  std::string engine = "gisaxs";
  std::string sample;  Where sample_where;
  // [model] of engine = "pdf" (docs/fitting.md, "PDF fits"): the structure
  // file, the fitted r range (Å), the radiation of f(0) or b, and the model's
  // options; qmax/qmin from the fit file, else the data file's header.
  std::string structure;  Where structure_where;
  double r_first = 0, r_last = 0;  Where r_where;
  Radiation radiation = Radiation::xray;
  PdfModelOptions pdf;
  double bin_width = kDefaultBinWidth;  // Å, of the pair histograms
  bool qmax_given = false;  // else Qmax from the data's header
  // [model] of engine = "powder" (docs/fitting.md, "Powder fits"): the
  // structure (above), the fitted 2θ range (degrees), the instrument, and
  // the number of Chebyshev background terms (bkg[0], ...).
  double two_theta_first = 0, two_theta_last = 0;  Where two_theta_where;
  PowderInstrument instrument;
  bool wavelength_given = false;  // else the data file's wavelength
  PowderModelOptions powder;
  std::size_t background_terms = 0;
  PowderProfile profile = PowderProfile::pseudo_voigt;
  // [[phase]] (powder only): a mixture, each phase its structure and size
  // distribution (powder.size; powder.self_debye_waller from [model]);
  // empty: the one phase of [model]'s structure and size.
  struct PowderPhase {
    std::string structure;  Where structure_where;
    PowderModelOptions powder;
  };
  std::vector<PowderPhase> phases;
  Where model_where;
  // [region]
  RangeSpec horizontal, vertical;  Where region_where;
  // [mask]
  std::string mask_file;  Where mask_where;  // any detector image
  MaskFileMeaning mask_meaning = MaskFileMeaning::nonzero_masked;
  bool mask_negative = false;              // values < 0: module gaps, dead pixels
  std::optional<double> mask_saturation;   // values ≥ it are masked
  std::vector<MaskShape> mask_shapes;      // [[mask.shape]] (mask.hpp)
  MaskOrigin mask_origin = MaskOrigin::image;  // of the shapes' coordinates
  // [[parameter]], [objective], [minimizer]
  std::vector<Parameter> parameters;
  ObjectiveOptions objective;
  MinimizerOptions minimizer;
  // [output]
  std::string output, png;
};

FitDescription read_fit_file(const std::filesystem::path& path);
FitDescription parse_fit_description(std::string_view text, const std::string& source_name,
                                     const std::filesystem::path& base);

// Detector images in the data file's orientation, as read.
struct LoadedData {
  std::size_t rows = 0, cols = 0;
  std::vector<double> values, sigma;   // sigma empty for "poisson"
  std::vector<std::uint8_t> masked;    // 1 = masked (empty: none)
};

// THE place where data are read: every format of read_detector_image
// (TIFF, CBF, EDF, HDF5/NeXus; detector_image.hpp), in the file's own
// orientation; the mask file's pixels become `masked` by its meaning.
LoadedData load_fit_data(const FitDescription& description);

struct FitRun {
  FitResult result;
  FitData data;               // on the model grid (row 0 = lowest)
  PixelRect region;           // of the whole detector, model orientation
  gisaxs::PixelGrid pixels;   // of the region (axes); for a PDF fit: r (Å) and one row
  // PDF fits: PDFgui's Rw = √(Σ w (G_obs − G_calc)² / Σ w G_obs²), w = 1/σ²;
  // powder fits: R_wp, the same sum over the 2θ points; NaN otherwise.
  double rw = std::numeric_limits<double>::quiet_NaN();
  std::string rw_name = "Rw";  // "Rw" (PDF), "R_wp" (powder)
  std::vector<std::string> run_lines;  // what the run record says about the fit
};

// Runs a description on data (the file's, or `given` in its place).
FitRun run_fit_description(const FitDescription& description, const std::optional<LoadedData>& given,
                           const gisaxs::GisaxsOptions& engine);

// Outputs (through H5Writer / AtomicOutput: whole or not at all).
void write_fit_hdf5(const std::filesystem::path& path, const FitRun& run, const RunRecord& record);
void write_fit_png(const std::filesystem::path& path, const FitRun& run);
// One summary table as text (stderr of the CLI, repr in Python).
std::string fit_summary(const FitResult& result);

}  // namespace nanoscatter::fit
