// GISAXS engine: read_sample(path) / parse_sample(toml_text) give a Sample;
// GisaxsPlan(sample, **options).execute(output=...) gives the image with its
// axes and per-pixel angle and q maps; options carry the names of
// `nanoscatter gisaxs`'s flags and are checked by the library.
#include <pybind11/stl.h>

#include <numbers>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "gisaxs_options.hpp"
#include "keywords.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_output.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"

namespace nanoscatter::python {

std::vector<std::string> gisaxs_keywords() { return with_device_keywords({"approximation"}); }

// The checks are GisaxsOptions::validate's (the plan calls it).
gisaxs::GisaxsOptions gisaxs_options(const Keywords& kw) {
  gisaxs::GisaxsOptions o;
  kw.get_parsed("approximation", o.approximation, gisaxs::parse_approximation);
  kw.get_device(o.compute);
  return o;
}

py::dict stats_dict(const gisaxs::GisaxsPlan::Stats& s) {
  py::dict d;
  d["amplitude_pixels"] = s.amplitude_pixels;
  d["kinds_computed"] = s.kinds_computed;
  d["kinds_reused"] = s.kinds_reused;
  d["last_computed_kinds"] = s.last_computed_kinds;
  d["mesh_table_kinds"] = s.mesh_table_kinds;
  d["batched_images"] = s.batched_images;
  d["batch_launches"] = s.batch_launches;
  return d;
}

namespace {

using gisaxs::GisaxsOptions;
using gisaxs::GisaxsPlan;
using gisaxs::Sample;

// The reader's notes on keys under an old name, as Python DeprecationWarnings
// (the CLI prints them as "nanoscatter: warning: ...").
Sample warned(Sample sample) {
  for (const std::string& warning : sample.warnings)
    if (PyErr_WarnEx(PyExc_DeprecationWarning, warning.c_str(), 1) != 0) throw py::error_already_set();
  return sample;
}

Sample sample_from(const py::handle& obj) {
  if (py::isinstance<Sample>(obj)) return obj.cast<Sample>();
  if (py::isinstance<gisaxs::SampleDocument>(obj)) return obj.cast<const gisaxs::SampleDocument&>().sample();
  if (py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__"))
    return warned(gisaxs::read_sample(py::str(obj).cast<std::string>()));
  fail_at({"", 0, "sample"},
          "expected a sample file name, a nanoscatter.Sample (parse_sample(text)) or a nanoscatter.SampleDocument");
}

// The plan with what the output and the ranks need.
struct PyGisaxsPlan {
  Sample sample;
  parallel::Communicator comm;
  GisaxsOptions options;
  GisaxsPlan plan;
  PyGisaxsPlan(Sample s, GisaxsOptions o, parallel::Communicator c)
      : sample(std::move(s)), comm(c), options(with_share(o, c)), plan(sample, options) {}

  static GisaxsOptions with_share(GisaxsOptions o, const parallel::Communicator& c) {
    o.share = c.share();
    return o;
  }

  // The whole image on every rank; output: also write the file the CLI's
  // --output would (rank 0 only).
  gisaxs::GisaxsResult execute(const std::string& output) const {
    if (!output.empty()) gisaxs::checked_image_output(output, "output");
    const std::string command = output.empty() ? "" : python_command();  // with the GIL
    py::gil_scoped_release release;
    gisaxs::GisaxsResult r = plan.execute();
    r.reduce(comm);
    if (!output.empty() && comm.root()) {
      const RunRecord record{"gisaxs", command, gisaxs::gisaxs_run_lines(sample, r)};
      gisaxs::write_gisaxs(output, r, record, options.approximation);
    }
    return r;
  }

  // The layouts of an edited sample; its beam, detector and layers must be
  // the plan's (the library says which field differs).
  void set_layouts(const Sample& edited) {
    plan.set_layouts(edited);
    sample.layouts = edited.layouts;  // the output's record describes what was run
  }
};

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
  // The image engines' shared axis names (docs/conventions.md): columns are
  // the detector's horizontal axis, rows its vertical one.
  out["col_axis"] = to_numpy(std::move(p.horizontal));
  out["row_axis"] = to_numpy(std::move(p.vertical));
  out["col_edges"] = to_numpy(std::move(p.horizontal_edges));
  out["row_edges"] = to_numpy(std::move(p.vertical_edges));
  out["col_name"] = p.horizontal_name;
  out["row_name"] = p.vertical_name;
  out["col_unit"] = p.horizontal_unit;
  out["row_unit"] = p.vertical_unit;
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
      .def_property_readonly("intensity", [](const Sample& s) { return s.beam.intensity; }, "beam intensity (scale)")
      .def_readonly("background", &Sample::background, "constant background per pixel")
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
  m.def("read_sample", [](const std::string& path) { return warned(gisaxs::read_sample(path)); }, py::arg("path"));
  m.def("parse_sample", [](std::string_view text, const std::string& source_name) {
    return warned(gisaxs::parse_sample(text, source_name));
  }, py::arg("text"), py::arg("source_name") = "<string>",
        "A sample from TOML text (errors name source_name:line).");

  py::class_<PyGisaxsPlan>(m, "GisaxsPlan",
                           "GisaxsPlan(sample, *, approximation='dwba', device='auto', precision='auto', "
                           "max_device_memory=0, threads=0, quiet=True, comm=None): comm=nanoscatter.world() "
                           "shares the pixels over the MPI ranks")
      .def(py::init([](const py::handle& sample, const py::kwargs& kwargs) {
             auto names = gisaxs_keywords();
             names.push_back("comm");
             const Keywords kw(kwargs, names, "GisaxsPlan");
             GisaxsOptions options = gisaxs_options(kw);
             return new PyGisaxsPlan(sample_from(sample), std::move(options), kw.communicator());
           }),
           py::arg("sample"))
      .def(
          "execute", [](const PyGisaxsPlan& p, const std::string& output) { return to_dict(p.execute(output)); },
          py::kw_only(), py::arg("output") = "")
      .def(
          "set_layouts", [](PyGisaxsPlan& p, const py::handle& sample) { p.set_layouts(sample_from(sample)); },
          py::arg("sample"),
          "The particles, interference and densities of an edited sample (a SampleDocument, Sample or file); "
          "its beam, detector and layers must be the plan's. Kinds whose description did not change keep "
          "their amplitudes (stats).")
      .def_property_readonly("stats", [](const PyGisaxsPlan& p) { return stats_dict(p.plan.stats()); })
      .def_property_readonly("particle_kinds", [](const PyGisaxsPlan& p) { return p.plan.particle_kinds(); });
}

}  // namespace nanoscatter::python
