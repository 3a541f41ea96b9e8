// Lorenz–Mie theory: mie(**keywords) as `nanoscatter mie` (x= or radius=
// with wavelength=, m=, core_ratio= and m_core=, ntheta= or theta=), plus the
// Mueller elements; output= writes the CLI's --output table. The keywords
// fill MieOptions, whose validate() holds the checks.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "keywords.hpp"
#include "nanoscatter/mie.hpp"
#include "nanoscatter/mie_output.hpp"
#include "refractive_index.hpp"

namespace nanoscatter::python {
namespace {

const std::vector<std::string> kMieKeywords = {"x",      "radius", "wavelength", "m",     "core_ratio",
                                               "m_core", "ntheta", "theta",   "output"};

MieOptions mie_options(const py::kwargs& kwargs, const Keywords& kw) {
  MieOptions o;
  kw.get("x", o.x);
  // Lengths in one unit (ADDA's), or each a string with its unit (then nm).
  std::optional<double> lambda;
  kw.get_same_unit_lengths({{"radius", &o.radius}, {"wavelength", &lambda}}, "wavelength");
  if (lambda) o.lambda = *lambda;
  if (kw.has("m")) o.m = refractive_index(kwargs["m"], "m");
  kw.get("core_ratio", o.core_ratio);
  if (kw.has("m_core") && !kw.is_none("m_core")) o.m_core = refractive_index(kwargs["m_core"], "m_core");
  kw.get("ntheta", o.ntheta);
  if (kw.has("theta") && !kw.is_none("theta")) o.theta = to_vector(kwargs["theta"], "theta");
  return o;
}

py::dict mie(const py::kwargs& kwargs) {
  const Keywords kw(kwargs, kMieKeywords, "mie");
  const MieOptions o = mie_options(kwargs, kw);
  std::string output;
  kw.get("output", output);
  o.validate();
  if (!output.empty()) check_mie_output(output);
  MieResult r = mie_scatter(o);
  MieMuellerTable t = mie_mueller_table(r, o.angles());
  if (!output.empty()) write_mie_mueller(output, t, RunRecord{"mie", python_command(), {}});
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
  d["theta"] = to_numpy(std::move(t.theta));
  d["s11"] = to_numpy(std::move(t.s11));
  d["s12"] = to_numpy(std::move(t.s12));
  d["s33"] = to_numpy(std::move(t.s33));
  d["s34"] = to_numpy(std::move(t.s34));
  return d;
}

}  // namespace

void bind_mie(py::module_& m) {
  m.def("mie", &mie,
        "mie(*, x=None, radius=None, wavelength=2π, m=(1.5, 0), core_ratio=None, m_core=None, ntheta=0, theta=None, "
        "output=''): exact efficiencies of a homogeneous or coated sphere; Mueller S11, S12, S33, S34 at theta "
        "(degrees); output writes them as the CLI's --output table.");
}

}  // namespace nanoscatter::python
