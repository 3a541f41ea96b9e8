// DDA engine: DdaPlan(shape=..., grid=..., m=..., ...).execute(), options named
// as `nanoscatter dda`'s flags (ADDA's); `lambda` is `lambda_` in Python.
// write_adda_outputs(dir) writes the CLI's ADDA-compatible files.
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <complex>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "nanoscatter/dda.hpp"

namespace nanoscatter::python {
namespace {

double parse_number(const py::handle& token) {
  if (py::isinstance<py::str>(token)) {
    const std::string s = token.cast<std::string>();
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() || s.empty()) fail_at({"", 0, "--shape"}, "not a number '", s, "'");
    return v;
  }
  return token.cast<double>();
}

// --shape: "sphere", ("ellipsoid", 1, 2), ("read", FILE); --m: a complex, a
// (re, im) pair, or a list of either, one per domain.
std::vector<std::complex<double>> indices(const py::handle& m) {
  auto one = [](const py::handle& v) -> std::complex<double> {
    if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
      const auto pair = v.cast<std::vector<double>>();
      if (pair.size() != 2) fail_at({"", 0, "--m"}, "expected pairs 're im'");
      return {pair[0], pair[1]};
    }
    return v.cast<std::complex<double>>();
  };
  if (py::isinstance<py::list>(m) || py::isinstance<py::tuple>(m)) {
    const py::sequence seq = m.cast<py::sequence>();
    const bool pair_of_numbers = seq.size() == 2 && !py::isinstance<py::sequence>(seq[0]) &&
                                 !py::isinstance<py::sequence>(seq[1]) &&
                                 !PyComplex_Check(seq[0].ptr()) && !PyComplex_Check(seq[1].ptr());
    if (pair_of_numbers) return {one(m)};
    std::vector<std::complex<double>> out;
    for (const auto& v : seq) out.push_back(one(v));
    return out;
  }
  return {one(m)};
}

DdaOptions make_options(const py::handle& shape, std::optional<std::string> shape_file,
                        std::optional<std::vector<int>> grid, std::optional<double> size,
                        std::optional<double> eq_rad, std::optional<double> dpl, double lambda, const py::handle& m,
                        const std::string& pol, const std::string& iter, double eps, std::optional<int> maxiter,
                        const std::string& sym, bool mueller, int ntheta, int grid_phi, bool csca, bool asym,
                        bool store_int_field, bool store_dip_pol, bool no_vol_cor, const std::string& precision,
                        const std::string& device, int threads, bool quiet) {
  DdaOptions o;
  if (shape_file) {
    if (!shape.is_none()) fail_at({"", 0, "--shape-file"}, "give either --shape or --shape-file");
    o.shape.kind = DdaShapeKind::file;
    o.shape.file = *shape_file;
  } else if (!shape.is_none()) {
    std::vector<py::object> tokens;
    if (py::isinstance<py::str>(shape)) tokens.push_back(py::reinterpret_borrow<py::object>(shape));
    else for (const auto& t : shape.cast<py::sequence>()) tokens.push_back(py::reinterpret_borrow<py::object>(t));
    if (tokens.empty()) fail_at({"", 0, "--shape"}, "empty");
    o.shape.kind = parse_dda_shape(py::str(tokens[0]).cast<std::string>());
    if (o.shape.kind == DdaShapeKind::file) {
      if (tokens.size() != 2) fail_at({"", 0, "--shape"}, "'read' takes one file name");
      o.shape.file = py::str(tokens[1]).cast<std::string>();
    } else {
      for (std::size_t i = 1; i < tokens.size(); ++i) o.shape.params.push_back(parse_number(tokens[i]));
    }
  }
  if (grid) {
    if (grid->size() != 1 && grid->size() != 3) fail_at({"", 0, "--grid"}, "expected 1 or 3 values, got ", grid->size());
    for (int v : *grid)
      if (v < 1) fail_at({"", 0, "--grid"}, "must be ≥ 1, got ", v);
    o.grid = (*grid)[0];
    if (grid->size() == 3) o.grid_yz = {(*grid)[1], (*grid)[2]};
  }
  if (size && !(*size > 0)) fail_at({"", 0, "--size"}, "must be > 0, got ", *size);
  if (eq_rad && !(*eq_rad > 0)) fail_at({"", 0, "--eq-rad"}, "must be > 0, got ", *eq_rad);
  if (dpl && !(*dpl > 0)) fail_at({"", 0, "--dpl"}, "must be > 0, got ", *dpl);
  o.size = size.value_or(0);
  o.eq_rad = eq_rad.value_or(0);
  o.dpl = dpl.value_or(0);
  o.lambda = lambda;
  if (!m.is_none()) o.m = indices(m);
  o.polarizability = parse_dda_polarizability(pol);
  o.solver = parse_dda_solver(iter);
  if (sym != "auto" && sym != "no") fail_at({"", 0, "--sym"}, "expected auto or no, got '", sym, "'");
  o.use_symmetry = sym == "auto";
  o.eps = eps;
  if (maxiter && *maxiter < 1) fail_at({"", 0, "--maxiter"}, "must be ≥ 1, got ", *maxiter);
  o.maxiter = maxiter.value_or(0);
  o.mueller = mueller;
  o.ntheta = ntheta;
  o.grid_nphi = grid_phi;
  o.csca = csca || asym;
  o.asym = asym;
  o.store_fields = store_int_field || store_dip_pol;
  o.volume_correction = !no_vol_cor;
  o.threads = threads;
  o.precision = parse_precision(precision);
  o.quiet = quiet;
  o.device = resolve_device(device, quiet);
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

struct PyDdaPlan {
  DdaOptions options;
  DdaPlan plan;
  std::optional<DdaResult> last;  // for write_adda_outputs
  explicit PyDdaPlan(DdaOptions o) : options(o), plan(o) {}

  py::dict execute() {
    {
      py::gil_scoped_release release;
      last = plan.execute();
    }
    DdaResult r = *last;
    py::dict d;
    d["box"] = std::vector<int>(r.box.begin(), r.box.end());
    d["fft_grid"] = std::vector<int>(r.fft_grid.begin(), r.fft_grid.end());
    d["dipoles"] = r.dipoles;
    d["dipole_size"] = r.dipole_size;
    d["dpl"] = r.dpl;
    d["a_eq"] = r.a_eq;
    d["size_x"] = r.size_x;
    d["ka_eq"] = r.ka_eq;
    d["lambda_"] = r.lambda;
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
};

}  // namespace

void bind_dda(py::module_& m) {
  py::class_<PyDdaPlan>(m, "DdaPlan")
      .def(py::init([](const py::object& shape, std::optional<std::string> shape_file,
                       std::optional<std::vector<int>> grid, std::optional<double> size, std::optional<double> eq_rad,
                       std::optional<double> dpl, double lambda, const py::object& mi, const std::string& pol,
                       const std::string& iter, double eps, std::optional<int> maxiter, const std::string& sym,
                       bool mueller, int ntheta, int grid_phi, bool csca, bool asym, bool store_int_field,
                       bool store_dip_pol, bool no_vol_cor, const std::string& precision, const std::string& device,
                       int threads, bool quiet) {
             return new PyDdaPlan(make_options(shape, shape_file, grid, size, eq_rad, dpl, lambda, mi, pol, iter, eps,
                                               maxiter, sym, mueller, ntheta, grid_phi, csca, asym, store_int_field,
                                               store_dip_pol, no_vol_cor, precision, device, threads, quiet));
           }),
           py::kw_only(), py::arg("shape") = py::none(), py::arg("shape_file") = py::none(),
           py::arg("grid") = py::none(), py::arg("size") = py::none(), py::arg("eq_rad") = py::none(),
           py::arg("dpl") = py::none(), py::arg("lambda_") = 6.283185307179586, py::arg("m") = py::none(),
           py::arg("pol") = "ldr", py::arg("iter") = "qmr", py::arg("eps") = 1e-5, py::arg("maxiter") = py::none(),
           py::arg("sym") = "auto", py::arg("mueller") = false, py::arg("ntheta") = 0, py::arg("grid_phi") = 0,
           py::arg("csca") = false, py::arg("asym") = false, py::arg("store_int_field") = false,
           py::arg("store_dip_pol") = false, py::arg("no_vol_cor") = false, py::arg("precision") = "double",
           py::arg("device") = "auto", py::arg("threads") = 0, py::arg("quiet") = true)
      .def("execute", &PyDdaPlan::execute)
      .def("write_adda_outputs",
           [](const PyDdaPlan& p, const std::string& dir, const std::string& command_line) {
             if (!p.last) fail_at({"", 0, "--output-dir"}, "execute() first");
             std::filesystem::create_directories(dir);
             write_adda_outputs(dir, *p.last, p.options, command_line);
           },
           py::arg("output_dir"), py::arg("command_line") = "nanoscatter (Python)")
      .def_property_readonly("box", [](const PyDdaPlan& p) {
        const auto& b = p.plan.setup().geometry.box;
        return std::vector<int>(b.begin(), b.end());
      })
      .def_property_readonly("dipoles", [](const PyDdaPlan& p) { return p.plan.setup().geometry.size(); })
      .def_property_readonly("device", [](const PyDdaPlan& p) { return std::string(to_string(p.options.device)); });
}

}  // namespace nanoscatter::python
