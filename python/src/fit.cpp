// Fitting from Python (fit_file.hpp): nanoscatter.fit(description, data=...)
// runs a fit description (the fit file's TOML text; the package turns a
// dict into it) on data from its files or NumPy arrays; GisaxsModel is the
// GISAXS FitModel as a plain callable f(*values) → image for scipy/lmfit.
#include <cmath>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "gisaxs_options.hpp"
#include "nanoscatter/fit_file.hpp"
#include "nanoscatter/fit_gisaxs.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"

namespace nanoscatter::python {

namespace {

std::vector<double> image_of(const py::handle& a, const char* name, std::size_t& rows, std::size_t& cols) {
  auto arr = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!arr || arr.ndim() != 2) fail_at({"", 0, name}, "expected a 2D array");
  rows = std::size_t(arr.shape(0)), cols = std::size_t(arr.shape(1));
  return std::vector<double>(arr.data(), arr.data() + arr.size());
}

py::dict result_dict(fit::FitRun&& run) {
  fit::FitResult& r = run.result;
  py::dict d;
  py::list names;
  std::vector<double> value, sigma;
  for (const auto& p : r.parameters) names.append(p.name), value.push_back(p.value), sigma.push_back(p.sigma);
  d["names"] = names;
  d["values"] = to_numpy(std::move(value));
  d["sigma"] = to_numpy(std::move(sigma));
  d["correlation_names"] = r.correlation_names;
  const auto q = py::ssize_t(r.correlation_names.size());
  d["correlation"] = to_numpy(std::move(r.correlation), {q, q});
  d["chi2"] = r.chi2;
  d["chi2_red"] = r.chi2_reduced;
  d["dof"] = r.degrees_of_freedom;
  d["iterations"] = r.iterations;
  d["evaluations"] = r.evaluations;
  d["seconds"] = r.seconds;
  d["converged"] = r.converged;
  d["message"] = r.message;
  const auto rows = py::ssize_t(r.rows), cols = py::ssize_t(r.cols);
  d["model"] = to_numpy(std::move(r.model), {rows, cols});
  d["residual"] = to_numpy(std::move(r.residual), {rows, cols});
  d["normalised_residual"] = to_numpy(std::move(r.normalised_residual), {rows, cols});
  d["data"] = to_numpy(std::move(run.data.values), {rows, cols});
  d["history_chi2"] = to_numpy(std::move(r.history_chi2));
  d["summary"] = fit::fit_summary(run.result);
  // PDF fits: PDFgui's Rw and the fitted r points (Å); powder fits: R_wp
  // and the fitted 2θ points (degrees).
  if (!std::isnan(run.rw) && run.rw_name == "R_wp") {
    d["rwp"] = run.rw;
    d["two_theta"] = to_numpy(std::move(run.pixels.horizontal));
  } else if (!std::isnan(run.rw)) {
    d["rw"] = run.rw;
    d["r"] = to_numpy(std::move(run.pixels.horizontal));
  }
  return d;
}

}  // namespace

void bind_fit(py::module_& m) {
  m.def(
      "_fit_text",
      [](const std::string& text, const std::string& source, const std::string& base, const py::object& data,
         const py::object& sigma, const py::object& mask, bool quiet, int threads) {
        fit::FitDescription d = fit::parse_fit_description(text, source, base);
        if (quiet) d.minimizer.quiet = true;
        std::optional<fit::LoadedData> given;
        if (!data.is_none()) {
          fit::LoadedData l;
          l.values = image_of(data, "data", l.rows, l.cols);
          std::size_t r = 0, c = 0;
          if (!sigma.is_none()) l.sigma = image_of(sigma, "sigma", r, c);
          if (!mask.is_none()) {
            const std::vector<double> m = image_of(mask, "mask", r, c);
            for (double v : m) l.masked.push_back(v != 0);
          }
          given = std::move(l);
        }
        gisaxs::GisaxsOptions engine;
        engine.compute.threads = threads;
        fit::FitRun run = fit::run_fit_description(d, given, engine);
        const RunRecord record{"fit", python_command(), run.run_lines};
        if (!d.output.empty()) fit::write_fit_hdf5(d.output, run, record);
        if (!d.png.empty()) fit::write_fit_png(d.png, run);
        return result_dict(std::move(run));
      },
      py::arg("text"), py::arg("source"), py::arg("base"), py::arg("data") = py::none(),
      py::arg("sigma") = py::none(), py::arg("mask") = py::none(), py::arg("quiet") = true, py::arg("threads") = 0);

  py::class_<fit::GisaxsFitModel>(m, "_GisaxsFitModel")
      .def(py::init([](const gisaxs::SampleDocument& doc, std::vector<std::size_t> region, const py::kwargs& kwargs) {
             fit::PixelRect rect;
             if (region.size() == 4) rect = {region[0], region[1], region[2], region[3]};
             else if (!region.empty()) fail_at({"", 0, "region"}, "expected (row0, rows, col0, cols)");
             // GisaxsPlan's keywords, mapped as GisaxsPlan maps them.
             const Keywords kw(kwargs, gisaxs_keywords(), "GisaxsModel");
             return fit::GisaxsFitModel(doc, rect, gisaxs_options(kw));
           }),
           py::arg("document"), py::arg("region") = std::vector<std::size_t>{})
      .def("paths", &fit::GisaxsFitModel::paths)
      .def_property_readonly("stats",
                             [](const fit::GisaxsFitModel& f) -> py::object {
                               if (!f.plan()) return py::none();  // no evaluation yet
                               return stats_dict(f.plan()->stats());
                             })
      .def_property_readonly("device_summary",
                             [](const fit::GisaxsFitModel& f) -> py::object {
                               if (!f.plan()) return py::none();
                               return py::str(f.plan()->device_summary());
                             })
      .def("set", &fit::GisaxsFitModel::set)
      .def_property_readonly("shape", [](const fit::GisaxsFitModel& f) { return py::make_tuple(f.rows(), f.cols()); })
      .def("evaluate", [](fit::GisaxsFitModel& f) {
        std::vector<double> out(f.size());
        f.evaluate(out);
        return to_numpy(std::move(out), {py::ssize_t(f.rows()), py::ssize_t(f.cols())});
      });
}

}  // namespace nanoscatter::python
