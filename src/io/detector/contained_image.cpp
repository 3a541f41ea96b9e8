// A detector image through the pipe of a contained read: the child writes
// what the reader returned, the parent checks the sizes again (the child's
// bytes are no more trusted than the file) and rebuilds it.
#include "io/contained_read.hpp"
#include "io/detector/formats.hpp"

namespace nanoscatter::detector {
namespace {

// source names a file and a dataset; format a word: no path is this long.
constexpr std::size_t kMaxText = 1 << 16;

void write_optional(contained::ResultWriter& out, const std::optional<double>& v) {
  out.value<char>(v ? 1 : 0);
  out.value<double>(v.value_or(0));
}

std::optional<double> read_optional(contained::ResultReader& in) {
  const bool present = in.value<char>() != 0;
  const double v = in.value<double>();
  return present ? std::optional<double>(v) : std::nullopt;
}

void write_image(contained::ResultWriter& out, const DetectorImage& img) {
  out.value<std::uint64_t>(img.rows);
  out.value<std::uint64_t>(img.cols);
  out.text(img.source);
  out.text(img.format);
  const DetectorMetadata& m = img.metadata;
  for (const auto* v : {&m.pixel_size_x_m, &m.pixel_size_y_m, &m.distance_m, &m.wavelength_a, &m.exposure_s})
    write_optional(out, *v);
  out.bytes(img.values.data(), img.values.size() * sizeof(double));
}

DetectorImage read_image(contained::ResultReader& in, const std::string& file, const DetectorReadOptions& options) {
  DetectorImage img;
  img.rows = in.value<std::uint64_t>();
  img.cols = in.value<std::uint64_t>();
  check_size({file, 0, ""}, img.rows, img.cols, options);
  img.source = in.text(kMaxText);
  img.format = in.text(kMaxText);
  DetectorMetadata& m = img.metadata;
  for (auto* v : {&m.pixel_size_x_m, &m.pixel_size_y_m, &m.distance_m, &m.wavelength_a, &m.exposure_s})
    *v = read_optional(in);
  img.values.resize(img.rows * img.cols);
  in.bytes(img.values.data(), img.values.size() * sizeof(double));
  return img;
}

}  // namespace

DetectorImage read_contained(const std::string& file, const char* library, const DetectorReadOptions& options,
                             const std::function<DetectorImage()>& read) {
  DetectorImage image;
  contained::run(
      {file, library}, options.contain,
      [&](contained::ResultWriter& out) {
        const DetectorImage img = read();
        if (img.values.size() != img.rows * img.cols)
          fail_at({file, 0, ""}, "internal: ", img.values.size(), " values for ", img.rows, " × ", img.cols);
        write_image(out, img);
      },
      [&](contained::ResultReader& in) { image = read_image(in, file, options); });
  return image;
}

}  // namespace nanoscatter::detector
