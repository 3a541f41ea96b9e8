// DDA engine: DdaPlan(**keywords).execute(output=...), the keywords
// named as `nanoscatter dda`'s flags (ADDA's; `--wavelength` is `wavelength` in
// Python) and read into DdaOptions, whose validate() holds the checks;
// comm=nanoscatter.world() solves the polarisations on different MPI ranks.
// output (a folder) writes the CLI's ADDA-compatible files (write_dda).
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "keywords.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/dda_output.hpp"
#include "refractive_index.hpp"

namespace nanoscatter::python {
namespace {

const std::vector<std::string> kDdaKeywords = {
    "shape", "shape_file", "grid",   "size",     "eq_rad", "dpl",  "wavelength",      "m",
    "pol",   "iter",       "eps",    "maxiter",  "sym",    "mueller", "ntheta",       "grid_phi",
    "csca",  "asym",       "store_int_field", "store_dip_pol", "no_vol_cor", "accept_unconverged"};

// shape: "sphere", ("ellipsoid", 0.8, 1.3) or ("read", FILE), as the CLI's
// words (numbers by their repr, which reads back exactly).
std::vector<std::string> shape_tokens(const py::kwargs& kwargs, const Keywords& kw) {
  std::vector<std::string> tokens;
  if (!kw.has("shape") || kw.is_none("shape")) return tokens;
  const py::handle shape = kwargs["shape"];
  if (py::isinstance<py::str>(shape)) return {shape.cast<std::string>()};
  for (const auto& t : shape.cast<py::sequence>()) tokens.push_back(py::str(t).cast<std::string>());
  if (tokens.empty()) fail_option("shape", "empty");
  return tokens;
}

DdaOptions dda_options(const py::kwargs& kwargs, const Keywords& kw) {
  DdaOptions o;
  std::string shape_file;
  if (!kw.is_none("shape_file")) kw.get("shape_file", shape_file);
  o.shape = parse_dda_shape_spec(shape_tokens(kwargs, kw), shape_file);
  if (kw.has("grid") && !kw.is_none("grid")) {
    if (py::isinstance<py::int_>(kwargs["grid"])) o.grid = {kwargs["grid"].cast<int>()};  // grid=16
    else kw.get("grid", o.grid);
  }
  // Lengths in one unit (ADDA's), or each a string with its unit (then nm).
  std::optional<double> lambda;
  kw.get_same_unit_lengths({{"size", &o.size}, {"eq_rad", &o.eq_rad}, {"wavelength", &lambda}}, "wavelength");
  if (lambda) o.lambda = *lambda;
  kw.get("dpl", o.dpl);
  if (kw.has("m") && !kw.is_none("m")) o.m = refractive_indices(kwargs["m"], "m");
  kw.get_parsed("pol", o.polarizability, parse_dda_polarizability);
  kw.get_parsed("iter", o.solver, parse_dda_solver);
  kw.get("eps", o.eps);
  kw.get("maxiter", o.maxiter);
  kw.get_parsed("sym", o.use_symmetry, parse_dda_symmetry);
  kw.get("accept_unconverged", o.accept_unconverged);
  kw.get("mueller", o.mueller);
  kw.get("ntheta", o.ntheta);
  kw.get("grid_phi", o.grid_phi);
  kw.get("csca", o.csca);
  kw.get("asym", o.asym);
  bool store_int_field = false, store_dip_pol = false, no_vol_cor = false;
  kw.get("store_int_field", store_int_field);
  kw.get("store_dip_pol", store_dip_pol);
  kw.get("no_vol_cor", no_vol_cor);
  o.store_fields = store_int_field || store_dip_pol;
  o.volume_correction = !no_vol_cor;
  kw.get_device(o.compute);
  return o;
}

py::dict run_dict(DdaPolarizationResult&& run) {
  py::dict d;
  d["name"] = std::string(1, run.name);
  d["from_symmetry"] = run.from_symmetry;
  d["cext"] = run.cext;
  d["cabs"] = run.cabs;
  d["csca"] = run.csca;
  d["qext"] = run.qext;
  d["qabs"] = run.qabs;
  d["qsca"] = run.qsca;
  d["integrated"] = run.integrated;
  d["csca_int"] = run.csca_int;
  d["qsca_int"] = run.qsca_int;
  d["g"] = std::vector<double>(run.g.begin(), run.g.end());
  d["iterations"] = run.iterations;
  d["converged"] = run.converged;
  d["residual"] = run.residual;
  d["failure"] = run.failure;
  d["residual_history"] = to_numpy(std::move(run.residual_history));
  if (!run.polarization.empty()) {
    const auto n = py::ssize_t(run.polarization.size() / 3);
    d["polarization"] = to_numpy(std::move(run.polarization), {n, 3});
    d["internal_field"] = to_numpy(std::move(run.internal_field), {n, 3});
  }
  return d;
}

// Mueller rows as (theta, phi, S[4][4]) arrays.
void put_mueller(py::dict& d, const char* prefix, const std::vector<DdaMuellerRow>& rows) {
  std::vector<double> theta, phi, s;
  for (const auto& r : rows) {
    theta.push_back(r.theta);
    phi.push_back(r.phi);
    s.insert(s.end(), r.s.begin(), r.s.end());
  }
  const auto n = py::ssize_t(rows.size());
  d[(std::string(prefix) + "_theta").c_str()] = to_numpy(std::move(theta));
  d[(std::string(prefix) + "_phi").c_str()] = to_numpy(std::move(phi));
  d[prefix] = to_numpy(std::move(s), {n, 4, 4});
}

py::dict result_dict(DdaResult r) {
  py::dict d;
  d["box"] = std::vector<int>(r.box.begin(), r.box.end());
  d["fft_grid"] = std::vector<int>(r.fft_grid.begin(), r.fft_grid.end());
  d["dipoles"] = r.dipoles;
  d["dipole_size"] = r.dipole_size;
  d["dpl"] = r.dpl;
  d["a_eq"] = r.a_eq;
  d["size_x"] = r.size_x;
  d["ka_eq"] = r.ka_eq;
  d["wavelength"] = r.lambda;
  d["lambda_"] = r.lambda;  // the old name, for one release (docs/conventions.md)
  d["polarizability"] = to_numpy(std::move(r.polarizability));
  py::list runs;
  for (auto& run : r.runs) runs.append(run_dict(std::move(run)));
  d["runs"] = runs;
  put_mueller(d, "mueller", r.mueller);
  put_mueller(d, "mueller_grid", r.mueller_grid);
  d["converged"] = r.converged;
  d["matvecs"] = r.matvecs;
  d["seconds_total"] = r.seconds_total;
  d["seconds_per_matvec"] = r.seconds_per_matvec;
  d["description"] = r.description;
  d["log"] = r.log;
  return d;
}

struct PyDdaPlan {
  parallel::Communicator comm;
  DdaPlan plan;
  std::optional<DdaResult> last;  // for write_adda_outputs
  PyDdaPlan(DdaOptions o, parallel::Communicator c) : comm(c), plan(std::move(o)) {}

  // The files go out on rank 0 (every rank has the whole result).
  void write(const DdaOutput& output, const std::string& command) const {
    if (comm.root()) write_dda(output, plan, *last, RunRecord{"dda", command, {}});
  }

  // folder, save_geom: also write the files the CLI's --output and
  // --save-geom would.
  py::dict execute(const std::string& folder, const std::string& save_geom) {
    const DdaOutput output{folder, save_geom};
    const bool writes = !folder.empty() || !save_geom.empty();
    if (writes) output.validate();
    const std::string command = writes ? python_command() : "";  // with the GIL
    {
      py::gil_scoped_release release;
      last = plan.execute(comm);
      if (writes) write(output, command);
    }
    return result_dict(*last);
  }
};

}  // namespace

void bind_dda(py::module_& m) {
  py::class_<PyDdaPlan>(m, "DdaPlan",
                        "DdaPlan(*, shape='sphere', shape_file=None, grid=None, size=None, eq_rad=None, dpl=None, "
                        "wavelength=2π, m=(1.5, 0), pol='ldr', iter='qmr', eps=1e-5, maxiter=None, sym='auto', "
                        "mueller=False, ntheta=0, grid_phi=0, csca=False, asym=False, store_int_field=False, "
                        "store_dip_pol=False, no_vol_cor=False, accept_unconverged=False, precision='auto', device='auto', threads=0, "
                        "max_device_memory=0, quiet=True, comm=None): comm=nanoscatter.world() solves the "
                        "polarisations on different MPI ranks")
      .def(py::init([](const py::kwargs& kwargs) {
        auto names = with_device_keywords(kDdaKeywords);
        names.push_back("comm");
        const Keywords kw(kwargs, names, "DdaPlan");
        DdaOptions options = dda_options(kwargs, kw);
        return new PyDdaPlan(std::move(options), kw.communicator());
      }))
      .def("execute", &PyDdaPlan::execute, py::kw_only(), py::arg("output") = "", py::arg("save_geom") = "")
      .def("write_adda_outputs",
           [](const PyDdaPlan& p, const std::string& dir, const std::optional<std::string>& command_line,
              const std::string& save_geom) {
             if (!p.last) fail_option("output", "execute() first");
             const std::string command = command_line ? *command_line : python_command();
             p.write(DdaOutput{dir, save_geom}, command);
           },
           py::arg("output"), py::arg("command_line") = py::none(), py::arg("save_geom") = "")
      .def_property_readonly("box", [](const PyDdaPlan& p) {
        const auto& b = p.plan.setup().geometry.box;
        return std::vector<int>(b.begin(), b.end());
      })
      .def_property_readonly("accept_unconverged",
                             [](const PyDdaPlan& p) { return p.plan.options().accept_unconverged; })
      .def_property_readonly("dipoles", [](const PyDdaPlan& p) { return p.plan.setup().geometry.size(); })
      .def_property_readonly("device",
                             [](const PyDdaPlan& p) { return std::string(to_string(p.plan.options().compute.device)); });
}

}  // namespace nanoscatter::python
