// Detector images and masks: read_image(path, frame=0) → (array, metadata),
// read_mask, mask_from_values and apply_mask_shapes. Images may be given as
// NumPy arrays or file names; masks come back as uint8 arrays (1 = use).
// Checks are the library's (detector_image.hpp, mask.hpp).
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "nanoscatter/detector_image.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/mask.hpp"

namespace nanoscatter::python {
namespace {

bool is_path(const py::handle& obj) { return py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__"); }
std::string path_of(const py::handle& obj) { return py::str(obj).cast<std::string>(); }

DetectorImage image_from(const py::handle& obj, const char* field) {
  if (is_path(obj)) return read_detector_image(path_of(obj));
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 2) fail_option(field, "expected a 2D array or an image file name");
  DetectorImage img;
  img.rows = std::size_t(a.shape(0));
  img.cols = std::size_t(a.shape(1));
  img.values.assign(a.data(), a.data() + a.size());
  img.source = "array";
  return img;
}

py::array_t<std::uint8_t> mask_array(DetectorMask&& m) {
  return to_numpy(std::move(m.use), {py::ssize_t(m.rows), py::ssize_t(m.cols)});
}

py::dict metadata_dict(const DetectorImage& img) {
  py::dict d;
  d["source"] = img.source;
  d["format"] = img.format;
  auto put = [&d](const char* key, const std::optional<double>& v) {
    if (v) d[key] = *v;
  };
  put("pixel_size_x_m", img.metadata.pixel_size_x_m);
  put("pixel_size_y_m", img.metadata.pixel_size_y_m);
  put("distance_m", img.metadata.distance_m);
  put("wavelength_a", img.metadata.wavelength_a);
  put("exposure_s", img.metadata.exposure_s);
  return d;
}

std::array<double, 2> pair_of(const py::dict& d, const char* key) {
  const auto v = to_vector(d[key], key);
  if (v.size() != 2) fail_option(key, "expected two numbers, got ", v.size());
  return {v[0], v[1]};
}

// A dict with the keys of a [[shape]] table (mask.hpp).
MaskShape shape_from(const py::handle& obj) {
  if (!py::isinstance<py::dict>(obj)) fail_option("shapes", "expected a list of dicts");
  const py::dict d = py::reinterpret_borrow<py::dict>(obj);
  for (auto item : d) {
    const std::string key = py::str(item.first).cast<std::string>();
    static const std::vector<std::string> known = {"type", "unit", "keep_inside", "x", "y", "centre", "radius", "points"};
    if (std::find(known.begin(), known.end(), key) == known.end())
      fail_option("shapes", "unknown key '", key, "'; allowed: type, unit, keep_inside, x, y, centre, radius, points");
  }
  MaskShape s;
  if (!d.contains("type")) fail_option("type", "missing; expected rectangle, polygon or circle");
  s.kind = parse_mask_shape_kind(d["type"].cast<std::string>());
  if (d.contains("unit")) s.unit = parse_mask_unit(d["unit"].cast<std::string>());
  if (d.contains("keep_inside")) s.keep_inside = d["keep_inside"].cast<bool>();
  switch (s.kind) {
    case MaskShapeKind::rectangle: {
      const auto x = pair_of(d, "x"), y = pair_of(d, "y");
      s.x_min = x[0], s.x_max = x[1], s.y_min = y[0], s.y_max = y[1];
      break;
    }
    case MaskShapeKind::circle: {
      const auto c = pair_of(d, "centre");
      s.centre_x = c[0], s.centre_y = c[1];
      s.radius = d["radius"].cast<double>();
      break;
    }
    case MaskShapeKind::polygon: {
      const auto p = to_vector(d["points"], "points");
      if (p.size() % 2) fail_option("points", "expected x, y pairs, got ", p.size(), " numbers");
      for (std::size_t i = 0; i + 1 < p.size(); i += 2) s.vertices.push_back({p[i], p[i + 1]});
      break;
    }
  }
  s.validate();
  return s;
}

}  // namespace

void bind_detector(py::module_& m) {
  m.def(
      "read_image",
      [](const py::object& path, std::size_t frame) {
        DetectorReadOptions o;
        o.frame = frame;
        DetectorImage img = read_detector_image(path_of(path), o);
        py::dict meta = metadata_dict(img);
        auto array = to_numpy(std::move(img.values), {py::ssize_t(img.rows), py::ssize_t(img.cols)});
        return py::make_tuple(array, meta);
      },
      py::arg("path"), py::arg("frame") = 0,
      "Reads one detector frame (TIFF, CBF, EDF, HDF5/NeXus; 'file.h5:/dataset'); returns (float64 array, metadata). "
      "Row 0 is the top detector row.");
  m.def(
      "read_mask",
      [](const py::object& path, const std::string& nonzero) {
        return mask_array(read_detector_mask(path_of(path), parse_mask_file_meaning(nonzero)));
      },
      py::arg("path"), py::arg("nonzero") = "masked",
      "A mask file as a uint8 array (1 = use); nonzero='masked' or 'used' says what its nonzero pixels mean.");
  m.def(
      "mask_from_values",
      [](const py::object& image, std::optional<double> saturation, bool mask_negative) {
        ValueMaskOptions o;
        o.saturation = saturation;
        o.mask_negative = mask_negative;
        return mask_array(mask_from_values(image_from(image, "image"), o));
      },
      py::arg("image"), py::kw_only(), py::arg("saturation") = py::none(), py::arg("mask_negative") = true,
      "Masks NaN, negative pixels (module gaps) and pixels >= saturation; image is an array or a file.");
  m.def(
      "apply_mask_shapes",
      [](const py::object& mask, const py::list& shapes, std::optional<std::array<double, 2>> pixel_size_mm) {
        auto a = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>::ensure(mask);
        if (!a || a.ndim() != 2) fail_option("mask", "expected a 2D array (nonzero = use)");
        DetectorMask dm{std::size_t(a.shape(0)), std::size_t(a.shape(1)), {}};
        dm.use.reserve(std::size_t(a.size()));
        for (py::ssize_t i = 0; i < a.size(); ++i) dm.use.push_back(a.data()[i] != 0);
        std::vector<MaskShape> list;
        for (auto s : shapes) list.push_back(shape_from(s));
        MaskGeometry g;
        if (pixel_size_mm) g = {(*pixel_size_mm)[0], (*pixel_size_mm)[1]};
        apply(dm, list, g);
        return mask_array(std::move(dm));
      },
      py::arg("mask"), py::arg("shapes"), py::kw_only(), py::arg("pixel_size_mm") = py::none(),
      "Applies rectangle/polygon/circle shapes (dicts with the keys of a [[shape]] table) to a mask; returns a new "
      "uint8 mask.");
}

}  // namespace nanoscatter::python
