// Internals of read_detector_image: one reader per format (one file each),
// the bytes of a file (gunzipped in memory where needed) and the size check
// every reader makes before it allocates.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "nanoscatter/detector_image.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::detector {

// The whole file; a gzip stream (magic 1f 8b) is inflated, its output
// bounded by what an image within the limits can need (no zip bombs).
std::vector<unsigned char> read_file_bytes(const std::string& file, const DetectorReadOptions& options);

// Throws, naming `where`, unless rows × cols is within the limits.
void check_size(const Where& where, std::size_t rows, std::size_t cols, const DetectorReadOptions& options);

// Throws for a frame index other than 0 in a single-image format.
void check_single_frame(const std::string& file, const DetectorReadOptions& options);

// miniCBF-style "# Key value" header lines (Pilatus CBF and TIFF
// ImageDescription): Pixel_size, Detector_distance, Wavelength, Exposure_time.
void parse_minicbf_header(const std::string& text, DetectorMetadata& metadata);

// `read` run in a child process (src/io/contained_read.hpp): its image, or
// its Error, or a one-line Error naming `file` and `library` when the
// library crashes or exceeds options.contain. The image's size is checked
// again on this side.
DetectorImage read_contained(const std::string& file, const char* library, const DetectorReadOptions& options,
                             const std::function<DetectorImage()>& read);

// Before CBFlib sees a file: the MIME header of each binary section must
// declare sizes that agree with each other and with the bytes present.
void check_cbf_binary_sections(const std::string& file, const std::vector<unsigned char>& bytes);

DetectorImage read_tiff(const std::string& file, const std::vector<unsigned char>& bytes,
                        const DetectorReadOptions& options);
DetectorImage read_cbf(const std::string& file, std::vector<unsigned char>& bytes,
                       const DetectorReadOptions& options);
DetectorImage read_edf(const std::string& file, const std::vector<unsigned char>& bytes,
                       const DetectorReadOptions& options);
// `dataset` may be empty (search the file, detector_image.hpp).
DetectorImage read_hdf5(const std::string& file, const std::string& dataset, const DetectorReadOptions& options);

}  // namespace nanoscatter::detector
