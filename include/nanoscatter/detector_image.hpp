// Detector images read from the files beamlines write: TIFF (Pilatus,
// ALBULA; also gzip-compressed), CBF (byte-offset, miniCBF header), EDF
// (ESRF), HDF5 and NeXus (NXdata @default/@signal, Eiger master files with
// external links, frame stacks, bitshuffle/LZ4 chunks through HDF5 plugins).
//
// Orientation (one convention for every format): row 0 is the TOP row of the
// detector as the file stores it, i.e. the first row written by TIFF, CBF
// (slowest axis), EDF (Dim_2) and HDF5/NeXus (second-last axis); column 0
// is the first pixel of a row (the fastest axis). Code that wants
// "row 0 = lowest detector row" (the GISAXS PixelGrid layout) calls
// bottom_up(image), which reverses the rows.
//
// Sizes read from a file are checked against DetectorReadOptions' limits
// before anything is allocated; every failure is an Error naming the file
// and the header field or dataset at fault.
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/contained_read.hpp"

namespace nanoscatter {

// What a file says about its acquisition, where it says it (SI units but
// the wavelength). Absent fields stay empty; nothing is guessed.
struct DetectorMetadata {
  std::optional<double> pixel_size_x_m;   // along a row (columns)
  std::optional<double> pixel_size_y_m;   // along a column (rows)
  std::optional<double> distance_m;       // sample–detector distance
  std::optional<double> wavelength_a;     // Å
  std::optional<double> exposure_s;       // exposure (count) time
};

struct DetectorImage {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> values;  // row-major, values[r * cols + c]; row 0 = top (see above)
  std::string source;          // the spec that was read ("file.h5:/entry/data/data[3]")
  std::string format;          // "tiff", "cbf", "edf", "hdf5", "text"
  DetectorMetadata metadata;
  double at(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
};

// Why the limits: a header is untrusted input; a claim of 1e5 × 1e5 pixels
// must be a one-line error, not an 80 GB allocation.
inline constexpr std::size_t kDefaultMaxDetectorSide = std::size_t(1) << 16;    // pixels per axis
inline constexpr std::size_t kDefaultMaxDetectorPixels = std::size_t(1) << 28;  // 2 GiB of float64

struct DetectorReadOptions {
  std::size_t frame = 0;  // frame of a stack (HDF5 rank 3, multi-frame EDF); 0 for single images
  std::size_t max_side = kDefaultMaxDetectorSide;
  std::size_t max_pixels = kDefaultMaxDetectorPixels;
  // HDF5 and CBF files are decoded by third-party libraries in a child
  // process under these limits (contained_read.hpp).
  ContainedReadOptions contain;
  void validate() const;
};

enum class DetectorFormat { tiff, cbf, edf, hdf5, unknown };

// The format of a file (its part before ":/dataset"): the extension first
// (a trailing .gz is looked through), else the magic bytes at its start.
DetectorFormat detector_format_of(const std::string& spec);

// Reads one frame. `spec` is a file name, or "file.h5:/path/to/dataset" for
// HDF5/NeXus. Without a dataset, an HDF5 file is searched as follows:
// /@default → entry @default → NXdata @signal (NeXus), else /entry/data/data
// or /entry/data/data_000001 (Eiger master, external links followed), else
// the first numeric dataset of rank 2 or 3 (depth first, names in order).
DetectorImage read_detector_image(const std::string& spec, const DetectorReadOptions& options = {});

// The same image with its rows reversed: row 0 = the lowest detector row.
DetectorImage bottom_up(const DetectorImage& image);

}  // namespace nanoscatter
