// Debye engine: DebyePlan(structure, **options).execute(q, normalize=...)
// and pair_distribution(structure, **options); options carry the names of
// `nanoscatter debye`'s flags and are checked as the CLI checks them.
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/debye_normalize.hpp"
#include "nanoscatter/debye_pdf.hpp"

namespace nanoscatter::python {
namespace {

DebyeOptions debye_options(const std::string& radiation, const std::string& method, double bin_width,
                           std::optional<double> energy, bool no_debye_waller, bool partials,
                           const std::string& precision, const std::string& device, int threads, bool quiet) {
  DebyeOptions o;
  o.radiation = parse_radiation(radiation);
  o.method = parse_debye_method(method);
  if (!(bin_width > 0 && std::isfinite(bin_width)))
    fail_at({"", 0, "--bin-width"}, "must be a finite value > 0 Å, got ", bin_width);
  o.bin_width = bin_width;
  if (energy) {
    if (o.radiation != Radiation::xray)
      fail_at({"", 0, "--energy"}, "anomalous scattering applies to --radiation xray only");
    if (!(*energy > 0 && std::isfinite(*energy)))
      fail_at({"", 0, "--energy"}, "must be a finite photon energy > 0 keV, got ", *energy);
    o.factors.energy_kev = energy;
  }
  o.factors.debye_waller = !no_debye_waller;
  if (threads < 0) fail_at({"", 0, "--threads"}, "must be ≥ 0 (0: all cores), got ", threads);
  o.threads = threads;
  o.partials = partials;
  o.precision = parse_precision(precision);
  o.quiet = quiet;
  o.device = resolve_device(device, quiet);
  return o;
}

// The plan with what normalisation needs (the structure and the options).
struct PyDebyePlan {
  Structure structure;
  DebyeOptions options;
  DebyePlan plan;
  PyDebyePlan(Structure s, DebyeOptions o) : structure(std::move(s)), options(o), plan(structure, options) {}

  py::dict execute(const py::handle& q_values, const std::string& normalize) const {
    const DebyeNormalization norm = parse_debye_normalization(normalize);
    std::vector<double> q = to_vector(q_values, "q");
    DebyeResult r;
    {
      py::gil_scoped_release release;
      r = plan.execute(q);
      normalize_debye_result(r, structure, options, norm);
    }
    py::dict out;
    const auto nq = py::ssize_t(r.q.size());
    std::vector<double> partials;
    for (auto& column : r.partials) partials.insert(partials.end(), column.begin(), column.end());
    out["q"] = to_numpy(std::move(r.q));
    out["intensity"] = to_numpy(std::move(r.intensity));
    out["partial_names"] = r.partial_names;
    out["partials"] = to_numpy(std::move(partials), {py::ssize_t(r.partial_names.size()), nq});
    out["atom_count"] = r.atom_count;
    out["seconds"] = r.seconds;
    out["normalize"] = std::string(to_string(norm));
    return out;
  }
};

}  // namespace

void bind_debye(py::module_& m) {
  py::class_<PyDebyePlan>(m, "DebyePlan")
      .def(py::init([](const py::handle& structure, const std::string& radiation, const std::string& method,
                       double bin_width, std::optional<double> energy, bool no_debye_waller, bool partials,
                       const std::string& precision, const std::string& device, int threads, bool quiet) {
             return new PyDebyePlan(structure_from(structure, "structure"),
                                    debye_options(radiation, method, bin_width, energy, no_debye_waller, partials,
                                                  precision, device, threads, quiet));
           }),
           py::arg("structure"), py::kw_only(), py::arg("radiation") = "xray", py::arg("method") = "exact",
           py::arg("bin_width") = 1e-3, py::arg("energy") = py::none(), py::arg("no_debye_waller") = false,
           py::arg("partials") = false, py::arg("precision") = "double", py::arg("device") = "auto",
           py::arg("threads") = 0, py::arg("quiet") = true)
      .def("execute", &PyDebyePlan::execute, py::arg("q"), py::kw_only(), py::arg("normalize") = "none")
      .def_property_readonly("device", [](const PyDebyePlan& p) { return std::string(to_string(p.options.device)); })
      .def_property_readonly("atom_count", [](const PyDebyePlan& p) { return p.structure.atoms.size(); });

  m.def("pair_distribution",
        [](const py::handle& structure, double pdf_dr, double pdf_rmax, const std::string& radiation,
           double bin_width, std::optional<double> energy, const std::string& device, int threads, bool quiet) {
          if (!(pdf_dr > 0 && std::isfinite(pdf_dr)))
            fail_at({"", 0, "--pdf-dr"}, "must be a finite value > 0 Å, got ", pdf_dr);
          if (!(pdf_rmax >= 0 && std::isfinite(pdf_rmax)))
            fail_at({"", 0, "--pdf-rmax"}, "must be a finite value ≥ 0 Å, got ", pdf_rmax);
          const Structure s = structure_from(structure, "structure");
          const DebyeOptions o = debye_options(radiation, "histogram", bin_width, energy, false, false, "double",
                                               device, threads, quiet);
          PdfResult r;
          {
            py::gil_scoped_release release;
            r = pair_distribution(s, o, PdfOptions{pdf_dr, pdf_rmax});
          }
          py::dict out;
          out["r"] = to_numpy(std::move(r.r));
          out["rdf"] = to_numpy(std::move(r.rdf));
          out["g"] = to_numpy(std::move(r.g));
          out["number_density"] = r.number_density;
          out["sphere_radius"] = r.sphere_radius;
          out["radius_of_gyration"] = r.radius_of_gyration;
          out["atoms"] = r.atoms;
          return out;
        },
        py::arg("structure"), py::kw_only(), py::arg("pdf_dr") = 0.01, py::arg("pdf_rmax") = 0.0,
        py::arg("radiation") = "xray", py::arg("bin_width") = 1e-3, py::arg("energy") = py::none(),
        py::arg("device") = "auto", py::arg("threads") = 0, py::arg("quiet") = true);

  m.def("uniform_q_grid", [](double qmin, double qmax, int n) { return to_numpy(uniform_q_grid(qmin, qmax, n)); },
        py::arg("qmin"), py::arg("qmax"), py::arg("qpoints"));
  m.def("two_theta_q_grid",
        [](double tmin, double tmax, int n, double wavelength) {
          return to_numpy(two_theta_q_grid(tmin, tmax, n, wavelength));
        },
        py::arg("two_theta_min"), py::arg("two_theta_max"), py::arg("qpoints"), py::arg("wavelength"));
}

}  // namespace nanoscatter::python
