// Debye engine: DebyePlan(structure, **options).execute(q, normalize=...)
// and pair_distribution(structure, **options); options carry the names of
// `nanoscatter debye`'s flags and are checked as the CLI checks them.
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "keywords.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/debye_normalize.hpp"
#include "nanoscatter/debye_output.hpp"
#include "nanoscatter/debye_pdf.hpp"

namespace nanoscatter::python {
namespace {

// The engine's keywords: DebyeOptions' fields by name (plus anomalous,
// energy, wavelength and no_debye_waller, which set its factors), and the
// device keywords. The checks are DebyeOptions::validate's (the plan calls it).
const std::vector<std::string> kDebyeKeywords = {"radiation",       "method",    "bin_width",
                                                 "histogram_mode",   "anomalous", "energy",
                                                 "wavelength",      "no_debye_waller", "partials"};
const std::vector<std::string> kFactorKeywords = {"anomalous", "energy", "wavelength", "no_debye_waller"};

// anomalous=True: f', f'' at energy (keV), or at hc/λ of wavelength (Å),
// as the CLI's --anomalous (anomalous_energy_kev); energy alone, the old
// spelling, still works with a DeprecationWarning. no_debye_waller as the
// plan and set_factors take it.
FactorOptions factor_options(const Keywords& kw) {
  FactorOptions f;
  bool anomalous = false;
  kw.get("anomalous", anomalous);
  std::optional<double> energy, wavelength;  // keV or "8040 eV"; Å or "0.154 nm" (units.hpp)
  kw.get_value_or_text("energy", energy,
                       [](const std::string& text) { return units::energy_kev(text, Where{"", 0, "energy", true}); });
  kw.get_wavelength("wavelength", wavelength, units::Length::angstrom);
  if (!anomalous && energy &&
      PyErr_WarnEx(PyExc_DeprecationWarning, "energy without anomalous is deprecated, use anomalous=True, energy=",
                   1) != 0)
    throw py::error_already_set();
  f.energy_kev = anomalous_energy_kev(anomalous, energy, wavelength);
  bool no_debye_waller = false;
  kw.get("no_debye_waller", no_debye_waller);
  f.debye_waller = !no_debye_waller;
  return f;
}

DebyeOptions debye_options(const Keywords& kw) {
  DebyeOptions o;
  kw.get_parsed("radiation", o.radiation, parse_radiation);
  kw.get_parsed("method", o.method, parse_debye_method);
  kw.get_length("bin_width", o.bin_width, units::Length::angstrom);
  kw.get_parsed("histogram_mode", o.histogram_mode, parse_histogram_mode);
  o.factors = factor_options(kw);
  kw.get("partials", o.partials);
  kw.get_device(o.compute);
  return o;
}

// The plan with what normalisation and the output need (the structure,
// the options, the ranks).
struct PyDebyePlan {
  Structure structure;
  DebyeOptions options;
  parallel::Communicator comm;
  DebyePlan plan;
  PyDebyePlan(Structure s, DebyeOptions o, parallel::Communicator c)
      : structure(std::move(s)), options(with_share(o, c)), comm(c), plan(structure, options) {}

  static DebyeOptions with_share(DebyeOptions o, const parallel::Communicator& c) {
    o.share = c.share();
    return o;
  }

  // output: also write the file the CLI's --output would (rank 0 only).
  py::dict execute(const py::handle& q_values, const std::string& normalize, const std::string& output) const {
    const DebyeNormalization norm = parse_debye_normalization(normalize);
    if (!output.empty()) checked_debye_output(output, "output");
    std::vector<double> q = to_vector(q_values, "q");
    const std::string command = output.empty() ? "" : python_command();  // with the GIL
    DebyeResult r;
    {
      py::gil_scoped_release release;
      r = plan.execute(q);
      r.reduce(comm);
      DebyeOptions whole = options;
      whole.share = WorkShare{};
      normalize_debye_result(r, structure, whole, norm);
      if (!output.empty() && comm.root()) {
        const RunRecord record{"debye", command, debye_run_lines("(Python)", structure, whole, norm, r.seconds)};
        write_debye(output, r, record, options.radiation, norm);
      }
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
  py::class_<PyDebyePlan>(m, "DebyePlan",
                          "DebyePlan(structure, *, radiation='xray', method='exact', bin_width=1e-3, histogram_mode='precise', anomalous=False, energy=None, wavelength=None, "
                          "no_debye_waller=False, partials=False, precision='auto', device='auto', threads=0, "
                          "max_device_memory=0, quiet=True, comm=None): comm=nanoscatter.world() shares the work over the MPI ranks")
      .def(py::init([](const py::handle& structure, const py::kwargs& kwargs) {
             auto names = with_device_keywords(kDebyeKeywords);
             names.push_back("comm");
             const Keywords kw(kwargs, names, "DebyePlan");
             DebyeOptions options = debye_options(kw);
             return new PyDebyePlan(structure_from(structure, "structure"), std::move(options), kw.communicator());
           }),
           py::arg("structure"))
      .def("execute", &PyDebyePlan::execute, py::arg("q"), py::kw_only(), py::arg("normalize") = "none",
           py::arg("output") = "")
      .def(
          "set_structure",
          [](PyDebyePlan& p, const py::handle& structure) {
            Structure s = structure_from(structure, "structure");
            py::gil_scoped_release release;
            p.plan.set_structure(s);
            p.structure = std::move(s);
          },
          py::arg("structure"), "New atoms: species, histograms and pair sums are made again.")
      .def(
          "set_factors",
          [](PyDebyePlan& p, const py::kwargs& kwargs) {
            const Keywords kw(kwargs, kFactorKeywords, "set_factors");
            p.plan.set_factors(factor_options(kw));
            p.options = p.plan.options();
          },
          "set_factors(*, anomalous=False, energy=None, wavelength=None, no_debye_waller=False): the pair sums of the last Q grid "
          "are kept")
      .def(
          "set_radiation",
          [](PyDebyePlan& p, const std::string& radiation) {
            p.plan.set_radiation(parse_radiation(radiation));
            p.options = p.plan.options();
          },
          py::arg("radiation"), "xray|neutron|electron; the pair sums of the last Q grid are kept")
      .def_property_readonly("stats",
                             [](const PyDebyePlan& p) {
                               const auto st = p.plan.stats();
                               py::dict d;
                               d["pair_sum_runs"] = st.pair_sum_runs;
                               d["histogram_builds"] = st.histogram_builds;
                               return d;
                             })
      .def_property_readonly("device",
                             [](const PyDebyePlan& p) { return std::string(to_string(p.options.compute.device)); })
      .def_property_readonly(
          "precision", [](const PyDebyePlan& p) { return std::string(to_string(p.plan.options().compute.precision)); },
          "the precision the plan runs in: 'single' or 'double' ('auto' resolved for the device)")
      .def_property_readonly("atom_count", [](const PyDebyePlan& p) { return p.structure.atoms.size(); });

  m.def(
      "pair_distribution",
      [](const py::handle& structure, const py::kwargs& kwargs) {
        auto names = with_device_keywords(
            {"pdf_dr", "pdf_rmax", "radiation", "bin_width", "histogram_mode", "anomalous", "energy", "wavelength"});
        const Keywords kw(kwargs, names, "pair_distribution");
        PdfOptions pdf;
        kw.get_length("pdf_dr", pdf.dr, units::Length::angstrom);
        kw.get_length("pdf_rmax", pdf.r_max, units::Length::angstrom);
        DebyeOptions o = debye_options(kw);
        o.method = DebyeMethod::histogram;
        const Structure s = structure_from(structure, "structure");
        PdfResult r;
        {
          py::gil_scoped_release release;
          r = pair_distribution(s, o, pdf);
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
      py::arg("structure"),
      "pair_distribution(structure, *, pdf_dr=0.01, pdf_rmax=0, radiation='xray', bin_width=1e-3, histogram_mode='precise', "
      "anomalous=False, energy=None, wavelength=None, "
      "device='auto', threads=0, max_device_memory=0, quiet=True)");

  m.def("uniform_q_grid", [](double qmin, double qmax, int n) { return to_numpy(uniform_q_grid(qmin, qmax, n)); },
        py::arg("qmin"), py::arg("qmax"), py::arg("qpoints"));
  m.def("two_theta_q_grid",
        [](double tmin, double tmax, int n, double wavelength) {
          return to_numpy(two_theta_q_grid(tmin, tmax, n, wavelength));
        },
        py::arg("two_theta_min"), py::arg("two_theta_max"), py::arg("qpoints"), py::arg("wavelength"));
  // The front ends' Q grid (make_q_grid): the keywords given are the fields
  // set; None is not given. Angles and the wavelength may carry their unit.
  m.def(
      "q_grid",
      [](const py::kwargs& kwargs) {
        const Keywords kw(kwargs, {"qmin", "qmax", "qpoints", "two_theta_min", "two_theta_max", "wavelength"},
                          "q_grid");
        QGridOptions g;
        if (!kw.is_none("qmin")) kw.get("qmin", g.qmin);
        if (!kw.is_none("qmax")) kw.get("qmax", g.qmax);
        if (!kw.is_none("qpoints")) kw.get("qpoints", g.qpoints);
        kw.get_angle("two_theta_min", g.two_theta_min, units::Angle::deg);
        kw.get_angle("two_theta_max", g.two_theta_max, units::Angle::deg);
        kw.get_wavelength("wavelength", g.wavelength, units::Length::angstrom);
        return to_numpy(make_q_grid(g));
      },
      "q_grid(*, qmin=None, qmax=None, qpoints=None, two_theta_min=None, two_theta_max=None, wavelength=None): "
      "the Q grid of `nanoscatter debye` (Å⁻¹) from its grid options");
}

}  // namespace nanoscatter::python
