// read_detector_image: the format from the extension or the magic bytes,
// then one reader per format (formats.hpp); bottom_up; the miniCBF header
// fields that Pilatus writes into both CBF and TIFF files.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/detector/formats.hpp"

namespace nanoscatter {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// "file.h5:/entry/data" → {"file.h5", "/entry/data"}; the dataset follows
// the last ":/" (file names keep their colons otherwise).
std::pair<std::string, std::string> split_spec(const std::string& spec) {
  const std::size_t colon = spec.rfind(":/");
  if (colon == std::string::npos || colon == 0) return {spec, ""};
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

DetectorFormat format_from_extension(const std::string& file) {
  std::filesystem::path p(lower(file));
  if (p.extension() == ".gz") p = p.stem();
  const std::string ext = p.extension().string();
  if (ext == ".tif" || ext == ".tiff") return DetectorFormat::tiff;
  if (ext == ".cbf") return DetectorFormat::cbf;
  if (ext == ".edf") return DetectorFormat::edf;
  if (ext == ".h5" || ext == ".hdf5" || ext == ".hdf" || ext == ".nxs" || ext == ".nx5")
    return DetectorFormat::hdf5;
  return DetectorFormat::unknown;
}

constexpr char kHdf5Magic[] = "\x89HDF\r\n\x1a\n";
constexpr char kCbfMagic[] = "###CBF";

DetectorFormat format_from_magic(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  char head[8] = {};
  in.read(head, sizeof head);
  const auto n = std::size_t(in.gcount());
  if (n >= 4 && (std::memcmp(head, "II*\0", 4) == 0 || std::memcmp(head, "MM\0*", 4) == 0))
    return DetectorFormat::tiff;
  if (n >= 8 && std::memcmp(head, kHdf5Magic, 8) == 0) return DetectorFormat::hdf5;
  if (n >= 6 && std::memcmp(head, kCbfMagic, 6) == 0) return DetectorFormat::cbf;
  // EDF headers open with '{' (after optional blank lines in old files).
  for (std::size_t i = 0; i < n; ++i) {
    if (head[i] == '{') return DetectorFormat::edf;
    if (!std::isspace(static_cast<unsigned char>(head[i]))) break;
  }
  return DetectorFormat::unknown;
}

const char* format_name(DetectorFormat f) {
  switch (f) {
    case DetectorFormat::tiff: return "tiff";
    case DetectorFormat::cbf: return "cbf";
    case DetectorFormat::edf: return "edf";
    case DetectorFormat::hdf5: return "hdf5";
    default: return "unknown";
  }
}

// "0.000172" from "172e-6 m" or "172 um": the value in metres.
std::optional<double> metres(double value, const std::string& unit) {
  if (unit == "m" || unit.empty()) return value;
  if (unit == "mm") return value * 1e-3;
  if (unit == "um" || unit == "µm") return value * 1e-6;
  return std::nullopt;
}

}  // namespace

void DetectorReadOptions::validate() const {
  if (max_side == 0) fail_option("max_side", "must be > 0");
  if (max_pixels == 0) fail_option("max_pixels", "must be > 0");
  contain.validate();
}

DetectorFormat detector_format_of(const std::string& spec) {
  const std::string file = split_spec(spec).first;
  const DetectorFormat by_name = format_from_extension(file);
  return by_name != DetectorFormat::unknown ? by_name : format_from_magic(file);
}

DetectorImage read_detector_image(const std::string& spec, const DetectorReadOptions& options) {
  options.validate();
  const auto [file, dataset] = split_spec(spec);
  if (file.empty()) fail_at({spec, 0, ""}, "no file name");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) fail_at({file, 0, ""}, "no such file");
  const DetectorFormat format = detector_format_of(spec);
  if (!dataset.empty() && format != DetectorFormat::hdf5)
    fail_at({file, 0, dataset}, "a dataset path is only meaningful for HDF5/NeXus files");

  DetectorImage image;
  if (format == DetectorFormat::hdf5) {
    image = detector::read_hdf5(file, dataset, options);
  } else if (format == DetectorFormat::unknown) {
    fail_at({file, 0, ""}, "unknown image format (extension or first bytes); expected TIFF (.tif, .tif.gz), "
            "CBF (.cbf), EDF (.edf) or HDF5/NeXus (.h5, .nxs)");
  } else {
    std::vector<unsigned char> bytes = detector::read_file_bytes(file, options);
    if (format == DetectorFormat::tiff) image = detector::read_tiff(file, bytes, options);
    if (format == DetectorFormat::cbf) image = detector::read_cbf(file, bytes, options);
    if (format == DetectorFormat::edf) image = detector::read_edf(file, bytes, options);
    image.source = file;
  }
  image.format = format_name(format);
  return image;
}

DetectorImage bottom_up(const DetectorImage& image) {
  DetectorImage out = image;
  for (std::size_t r = 0; r < image.rows; ++r)
    std::copy_n(image.values.begin() + std::ptrdiff_t(r * image.cols), image.cols,
                out.values.begin() + std::ptrdiff_t((image.rows - 1 - r) * image.cols));
  return out;
}

namespace detector {

void parse_minicbf_header(const std::string& text, DetectorMetadata& m) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string hash, key;
    if (!(words >> hash >> key) || hash != "#") continue;
    if (key == "Pixel_size") {
      // "# Pixel_size 172e-6 m x 172e-6 m"
      double x = 0, y = 0;
      std::string ux, times, uy;
      if (words >> x >> ux >> times >> y >> uy) {
        m.pixel_size_x_m = metres(x, ux);
        m.pixel_size_y_m = metres(y, uy);
      }
    } else if (key == "Detector_distance") {
      double d = 0;
      std::string u;
      if (words >> d) {
        words >> u;
        m.distance_m = metres(d, u);
      }
    } else if (key == "Wavelength") {
      double w = 0;
      if (words >> w) m.wavelength_a = w;  // Pilatus writes Å ("1.0000 A")
    } else if (key == "Exposure_time") {
      double t = 0;
      if (words >> t) m.exposure_s = t;
    }
  }
}

}  // namespace detector
}  // namespace nanoscatter
