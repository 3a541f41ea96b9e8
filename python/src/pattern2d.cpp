// pattern2d engine: Pattern2DPlan(structure, **options).execute(**geometry,
// output=..., png=...). The keywords are the fields of Pattern2DOptions and
// Pattern2DGeometryOptions, which are the names of `nanoscatter pattern2d`'s
// flags; the checks are the library's (Pattern2DOptions::validate,
// make_pattern2d_geometry, check_pattern2d_outputs).
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "keywords.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/pattern2d_output.hpp"

namespace nanoscatter::python {
namespace {

// Pattern2DOptions' fields by name (no_debye_waller sets
// factors.debye_waller), the communicator, and the device keywords (added
// by with_device_keywords).
const std::vector<std::string> kPlanKeywords = {"radiation", "anomalous", "no_debye_waller", "amplitude", "comm"};
// The geometry (Pattern2DGeometryOptions) and the files to write.
const std::vector<std::string> kExecuteKeywords = {
    "wavelength", "qmax", "nq", "nphi", "euler_zyz", "rotation", "beam", "flat", "distance", "pixel_size",
    "nx", "ny", "direct_beam", "no_curvature", "output", "png"};

// A list keyword that may be left out or given as None: then the field
// stays empty ("not given").
void get_values(const Keywords& kw, const char* name, std::vector<double>& into) {
  if (!kw.is_none(name)) kw.get(name, into);
}

Pattern2DOptions plan_options(const Keywords& kw) {
  Pattern2DOptions o;
  kw.get_parsed("radiation", o.radiation, parse_radiation);
  kw.get("anomalous", o.anomalous);
  bool no_debye_waller = false;
  kw.get("no_debye_waller", no_debye_waller);
  o.factors.debye_waller = !no_debye_waller;
  kw.get("amplitude", o.amplitude);
  kw.get_device(o.compute);
  return o;
}

Pattern2DGeometryOptions geometry_options(const Keywords& kw) {
  Pattern2DGeometryOptions g;
  kw.get_wavelength("wavelength", g.wavelength, units::Length::angstrom);
  kw.get("qmax", g.qmax);
  kw.get("nq", g.nq);
  kw.get("nphi", g.nphi);
  kw.get_angles("euler_zyz", g.euler_zyz, units::Angle::deg);
  get_values(kw, "rotation", g.rotation);
  get_values(kw, "beam", g.beam);
  kw.get("flat", g.flat);
  kw.get_length("distance", g.distance, units::Length::mm);
  kw.get_length("pixel_size", g.pixel_size, units::Length::mm);
  kw.get("nx", g.nx);
  kw.get("ny", g.ny);
  get_values(kw, "direct_beam", g.direct_beam);
  kw.get("no_curvature", g.no_curvature);
  return g;
}

// The plan with what the output records (the structure's title, whether it
// has B factors) and the ranks it shares its pixels with.
struct PyPattern2DPlan {
  Pattern2DOptions options;
  parallel::Communicator comm;
  std::string structure_title;
  bool b_factors;
  Pattern2DPlan plan;
  PyPattern2DPlan(const Structure& s, Pattern2DOptions o, parallel::Communicator c)
      : options(with_share(o, c)), comm(c), structure_title(s.title), b_factors(s.has_b_factors()), plan(s, options) {}

  static Pattern2DOptions with_share(Pattern2DOptions o, const parallel::Communicator& c) {
    o.share = c.share();
    return o;
  }

  // output, png: also write the files the CLI's --output and --png would
  // (rank 0 only); every rank gets the whole image.
  py::dict execute(const py::kwargs& kwargs) const {
    const Keywords kw(kwargs, kExecuteKeywords, "Pattern2DPlan.execute");
    std::string output, png;
    kw.get("output", output);
    kw.get("png", png);
    check_pattern2d_outputs(output, png, options);
    const Pattern2DGeometry g = make_pattern2d_geometry(geometry_options(kw));
    const bool writes = !output.empty() || !png.empty();
    const std::string command = writes ? python_command() : "";  // with the GIL
    Pattern2DResult r;
    {
      py::gil_scoped_release release;
      r = plan.execute(g);
      r.reduce(comm);
      if (writes && comm.root()) {
        Pattern2DOptions whole = options;
        whole.share = WorkShare{};
        const RunRecord record{"pattern2d", command, pattern2d_run_lines("(Python)", structure_title, b_factors, r, g, whole)};
        if (!output.empty()) write_pattern2d(output, r, record, g, whole);
        if (!png.empty()) write_pattern2d(png, r, record, g, whole);
      }
    }
    const auto rows = py::ssize_t(r.grid.rows), cols = py::ssize_t(r.grid.cols);
    std::vector<double> q;
    q.reserve(3 * r.grid.q.size());
    for (const Vec3& v : r.grid.q) q.insert(q.end(), {v.x, v.y, v.z});
    py::dict out;
    out["intensity"] = to_numpy(std::move(r.intensity), {rows, cols});
    out["q"] = to_numpy(std::move(q), {rows, cols, 3});
    if (!r.amplitude.empty()) out["amplitude"] = to_numpy(std::move(r.amplitude), {rows, cols});
    out["row_axis"] = to_numpy(std::move(r.grid.row_axis));
    out["col_axis"] = to_numpy(std::move(r.grid.col_axis));
    out["row_name"] = r.grid.row_name;
    out["col_name"] = r.grid.col_name;
    out["row_unit"] = r.grid.row_unit;
    out["col_unit"] = r.grid.col_unit;
    out["polar"] = r.grid.polar;
    out["atom_count"] = r.atom_count;
    out["electron_gamma"] = r.electron_gamma;
    out["seconds"] = r.seconds;
    return out;
  }
};

}  // namespace

void bind_pattern2d(py::module_& m) {
  py::class_<PyPattern2DPlan>(
      m, "Pattern2DPlan",
      "Pattern2DPlan(structure, *, radiation='xray', anomalous=False, no_debye_waller=False, amplitude=False, "
      "precision='auto', device='auto', threads=0, max_device_memory=0, quiet=True, comm=None): "
      "comm=nanoscatter.world() shares the pixels over the MPI ranks")
      .def(py::init([](const py::handle& structure, const py::kwargs& kwargs) {
             const Keywords kw(kwargs, with_device_keywords(kPlanKeywords), "Pattern2DPlan");
             Pattern2DOptions options = plan_options(kw);
             return new PyPattern2DPlan(structure_from(structure, "structure"), std::move(options), kw.communicator());
           }),
           py::arg("structure"))
      .def("execute", &PyPattern2DPlan::execute,
           "execute(*, wavelength, qmax, nq, nphi | flat=True, distance, pixel_size, nx, ny, direct_beam=None; "
           "euler_zyz or rotation, beam, no_curvature=False, output='', png='')")
      .def_property_readonly("device",
                             [](const PyPattern2DPlan& p) { return std::string(to_string(p.options.compute.device)); });
  m.def("photon_energy_kev", &photon_energy_kev, py::arg("wavelength"), "E = hc/λ (keV) of λ in Å.");
}

}  // namespace nanoscatter::python
