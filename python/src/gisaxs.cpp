// GISAXS engine: read_sample(path) / parse_sample(toml_text) give a Sample;
// GisaxsPlan(sample, approximation=..., device=..., precision=..., threads=...).execute()
// gives the image with its axes and per-pixel angle and q maps.
#include <pybind11/stl.h>

#include <numbers>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::python {
namespace {

using gisaxs::GisaxsOptions;
using gisaxs::GisaxsPlan;
using gisaxs::Sample;

Sample sample_from(const py::handle& obj) {
  if (py::isinstance<Sample>(obj)) return obj.cast<Sample>();
  if (py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__"))
    return gisaxs::read_sample(py::str(obj).cast<std::string>());
  fail_at({"", 0, "sample"}, "expected a sample file name or a nanoscatter.Sample (parse_sample(text))");
}

GisaxsOptions gisaxs_options(const std::string& approximation, const std::string& device,
                             const std::string& precision, std::size_t max_device_memory, int threads, bool quiet) {
  GisaxsOptions o;
  o.approximation = gisaxs::parse_approximation(approximation);
  if (threads < 0) fail_at({"", 0, "--threads"}, "must be ≥ 0 (0: all cores), got ", threads);
  o.threads = threads;
  o.quiet = quiet;
  o.precision = parse_precision(precision);
  o.max_device_memory = max_device_memory;
  // As the CLI: the GPU computes mesh form factors only, so auto falls back
  // to the CPU without a notice.
  const DeviceRequest request = parse_device(device);
  o.device = select_device(request, quiet || request == DeviceRequest::automatic);
  return o;
}

py::dict to_dict(gisaxs::GisaxsResult&& r) {
  const auto rows = py::ssize_t(r.rows), cols = py::ssize_t(r.cols);
  gisaxs::PixelGrid& p = r.pixels;
  py::dict out;
  out["intensity"] = to_numpy(std::move(r.intensity), {rows, cols});
  out["alpha_f"] = to_numpy(std::move(p.alpha_f), {rows, cols});
  out["phi_f"] = to_numpy(std::move(p.phi_f), {rows, cols});
  out["solid_angle"] = to_numpy(std::move(p.solid_angle), {rows, cols});
  out["qx"] = to_numpy(std::move(p.qx), {rows, cols});
  out["qy"] = to_numpy(std::move(p.qy), {rows, cols});
  out["qz"] = to_numpy(std::move(p.qz), {rows, cols});
  out["reachable"] = to_numpy(std::move(p.reachable), {rows, cols});
  out["horizontal"] = to_numpy(std::move(p.horizontal));
  out["vertical"] = to_numpy(std::move(p.vertical));
  out["horizontal_edges"] = to_numpy(std::move(p.horizontal_edges));
  out["vertical_edges"] = to_numpy(std::move(p.vertical_edges));
  out["horizontal_name"] = p.horizontal_name;
  out["vertical_name"] = p.vertical_name;
  out["horizontal_unit"] = p.horizontal_unit;
  out["vertical_unit"] = p.vertical_unit;
  out["particle_kinds"] = r.particle_kinds;
  out["seconds"] = r.seconds;
  return out;
}

}  // namespace

void bind_gisaxs(py::module_& m) {
  constexpr double deg = 180.0 / std::numbers::pi;
  py::class_<Sample>(m, "Sample", "A GISAXS sample: beam, detector, layers and particle layouts (docs/gisaxs.md).")
      .def_property_readonly("wavelength", [](const Sample& s) { return s.beam.wavelength; }, "nm")
      .def_property_readonly("alpha_i", [=](const Sample& s) { return s.beam.alpha_i * deg; }, "degrees")
      .def_property_readonly("phi_i", [=](const Sample& s) { return s.beam.phi_i * deg; }, "degrees")
      .def_property_readonly("layers", [](const Sample& s) {
        std::vector<std::string> names;
        for (const auto& l : s.layers) names.push_back(l.name);
        return names;
      })
      .def_property_readonly("particles", [](const Sample& s) {
        std::vector<std::string> shapes;
        for (const auto& layout : s.layouts)
          for (const auto& p : layout.particles) shapes.push_back(p.shape);
        return shapes;
      })
      .def_readonly("source", &Sample::source)
      .def("__repr__", [](const Sample& s) { return "<nanoscatter.Sample " + s.source + ">"; });
  m.def("read_sample", [](const std::string& path) { return gisaxs::read_sample(path); }, py::arg("path"));
  m.def("parse_sample", &gisaxs::parse_sample, py::arg("text"), py::arg("source_name") = "<string>",
        "A sample from TOML text (errors name source_name:line).");

  py::class_<GisaxsPlan>(m, "GisaxsPlan")
      .def(py::init([](const py::handle& sample, const std::string& approximation, const std::string& device,
                       const std::string& precision, std::size_t max_device_memory, int threads, bool quiet) {
             return new GisaxsPlan(sample_from(sample), gisaxs_options(approximation, device, precision,
                                                                       max_device_memory, threads, quiet));
           }),
           py::arg("sample"), py::kw_only(), py::arg("approximation") = "dwba", py::arg("device") = "auto",
           py::arg("precision") = "double", py::arg("max_device_memory") = 0, py::arg("threads") = 0,
           py::arg("quiet") = true)
      .def("execute", [](const GisaxsPlan& p) {
        gisaxs::GisaxsResult r;
        {
          py::gil_scoped_release release;
          r = p.execute();
        }
        return to_dict(std::move(r));
      })
      .def_property_readonly("particle_kinds", &GisaxsPlan::particle_kinds);
}

}  // namespace nanoscatter::python
