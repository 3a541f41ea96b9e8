// Lorenz–Mie theory: mie(x= or radius= with lambda_=, m=, core_ratio=,
// m_core=, ntheta= or theta=) as `nanoscatter mie`, plus Mueller elements.
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <complex>
#include <numbers>
#include <optional>
#include <vector>

#include "bindings.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/mie.hpp"

namespace nanoscatter::python {
namespace {

std::complex<double> index_from(const py::handle& v, const char* field) {
  if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
    const auto pair = v.cast<std::vector<double>>();
    if (pair.size() != 2) fail_at({"", 0, field}, "expected 're im'");
    return {pair[0], pair[1]};
  }
  return v.cast<std::complex<double>>();
}

py::dict mie(std::optional<double> x, std::optional<double> radius, double lambda, const py::object& m,
             std::optional<double> core_ratio, const py::object& m_core, int ntheta, const py::object& theta) {
  // The CLI's checks (apps/nanoscatter/mie.cpp), same messages.
  if (bool(x) == bool(radius)) fail_option("x", "give either --x or --radius (with --lambda)");
  if (x && !(*x > 0)) fail_option("x", "must be > 0, got ", *x);
  if (radius && !(*radius > 0)) fail_at({"", 0, "--radius"}, "must be > 0, got ", *radius);
  if (!(lambda > 0)) fail_at({"", 0, "--lambda"}, "must be > 0, got ", lambda);
  const double size_parameter = x ? *x : 2 * std::numbers::pi * *radius / lambda;
  const std::complex<double> index = index_from(m, "--m");
  if (bool(core_ratio) != !m_core.is_none()) fail_at({"", 0, "--m-core"}, "--core-ratio and --m-core go together");
  if (core_ratio && !(*core_ratio >= 0 && *core_ratio <= 1))
    fail_at({"", 0, "--core-ratio"}, "must lie in [0, 1], got ", *core_ratio);
  if (ntheta < 0 || ntheta == 1) fail_at({"", 0, "--ntheta"}, "must be ≥ 2, got ", ntheta);
  MieResult r = core_ratio ? mie_coated_sphere(*core_ratio * size_parameter, size_parameter,
                                               index_from(m_core, "--m-core"), index)
                           : mie_sphere(size_parameter, index);
  std::vector<double> angles;
  if (!theta.is_none()) angles = to_vector(theta, "theta");
  else
    for (int i = 0; i < ntheta; ++i) angles.push_back(180.0 * i / (ntheta - 1));
  std::vector<double> s11, s12, s33, s34;
  for (double t : angles) {
    const MieMueller mm = mie_mueller(r, t * std::numbers::pi / 180);
    s11.push_back(mm.s11);
    s12.push_back(mm.s12);
    s33.push_back(mm.s33);
    s34.push_back(mm.s34);
  }
  py::dict d;
  d["x"] = r.x;
  d["qext"] = r.qext;
  d["qsca"] = r.qsca;
  d["qabs"] = r.qabs;
  d["qback"] = r.qback;
  d["g"] = r.g;
  d["terms"] = r.a.size();
  d["a"] = to_numpy(std::move(r.a));
  d["b"] = to_numpy(std::move(r.b));
  d["theta"] = to_numpy(std::move(angles));
  d["s11"] = to_numpy(std::move(s11));
  d["s12"] = to_numpy(std::move(s12));
  d["s33"] = to_numpy(std::move(s33));
  d["s34"] = to_numpy(std::move(s34));
  return d;
}

}  // namespace

void bind_mie(py::module_& m) {
  m.def("mie", &mie, py::kw_only(), py::arg("x") = py::none(), py::arg("radius") = py::none(),
        py::arg("lambda_") = 2 * std::numbers::pi, py::arg("m") = py::make_tuple(1.5, 0.0),
        py::arg("core_ratio") = py::none(), py::arg("m_core") = py::none(), py::arg("ntheta") = 0,
        py::arg("theta") = py::none(),
        "Exact efficiencies of a homogeneous or coated sphere; Mueller S11, S12, S33, S34 at theta (degrees).");
}

}  // namespace nanoscatter::python
