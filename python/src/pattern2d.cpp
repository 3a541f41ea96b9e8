// pattern2d engine: Pattern2DPlan(structure, **options).execute(wavelength=...,
// qmax/nq/nphi or flat/distance/pixel_size/nx/ny, euler/rotation, beam, ...),
// with the names of `nanoscatter pattern2d`'s flags.
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/pattern2d.hpp"

namespace nanoscatter::python {
namespace {

struct GeometryArgs {
  std::optional<double> wavelength, qmax, distance, pixel_size;
  std::optional<int> nq, nphi, nx, ny;
  std::optional<std::array<double, 3>> euler, beam;
  std::optional<std::array<double, 9>> rotation;
  std::optional<std::array<double, 2>> beam_center;
  bool flat = false, no_curvature = false;
};

// The CLI's rules (apps/nanoscatter/pattern2d.cpp), with the same messages.
Pattern2DGeometry make_geometry(const GeometryArgs& o) {
  Pattern2DGeometry g;
  if (!o.wavelength) fail_at({"", 0, "--wavelength"}, "required (Å)");
  g.wavelength = *o.wavelength;
  if (o.euler && o.rotation) fail_at({"", 0, "--rotation"}, "give either --euler or --rotation, not both");
  if (o.euler) g.orientation = rotation_zyz_degrees((*o.euler)[0], (*o.euler)[1], (*o.euler)[2]);
  if (o.rotation) {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.row[i][j] = (*o.rotation)[std::size_t(3 * i + j)];
    g.orientation = r;
  }
  if (o.beam) g.beam_direction = {(*o.beam)[0], (*o.beam)[1], (*o.beam)[2]};
  g.curvature = !o.no_curvature;
  const std::pair<const char*, bool> polar[] = {{"--qmax", bool(o.qmax)}, {"--nq", bool(o.nq)}, {"--nphi", bool(o.nphi)}};
  const std::pair<const char*, bool> flat[] = {
      {"--distance", bool(o.distance)}, {"--pixel-size", bool(o.pixel_size)}, {"--nx", bool(o.nx)}, {"--ny", bool(o.ny)}};
  if (o.flat) {
    for (auto [name, present] : polar)
      if (present) fail_at({"", 0, name}, "not used with --flat");
    for (auto [name, present] : flat)
      if (!present) fail_at({"", 0, name}, "required with --flat");
    g.detector = FlatDetector{*o.distance, *o.pixel_size, *o.nx, *o.ny, o.beam_center};
  } else {
    for (auto [name, present] : flat)
      if (present) fail_at({"", 0, name}, "only used with --flat");
    if (o.beam_center) fail_at({"", 0, "--beam-center"}, "only used with --flat");
    for (auto [name, present] : polar)
      if (!present) fail_at({"", 0, name}, "required for the polar detector (or give --flat)");
    g.detector = PolarDetector{*o.qmax, *o.nq, *o.nphi};
  }
  validate_geometry(g);
  return g;
}

struct PyPattern2DPlan {
  Pattern2DOptions options;
  bool anomalous = false;
  Structure structure;
  std::optional<Pattern2DPlan> plan;  // made on the first execute when anomalous (needs λ)
  double plan_wavelength = 0;

  py::dict execute(const GeometryArgs& args) {
    const Pattern2DGeometry g = make_geometry(args);
    if (anomalous && (!plan || plan_wavelength != g.wavelength)) {
      // --anomalous: f', f'' at the photon energy of this wavelength.
      Pattern2DOptions o = options;
      o.factors.energy_kev = photon_energy_kev(g.wavelength);
      plan.emplace(structure, o);
      plan_wavelength = g.wavelength;
    }
    Pattern2DResult r;
    {
      py::gil_scoped_release release;
      r = plan->execute(g);
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
  py::class_<PyPattern2DPlan>(m, "Pattern2DPlan")
      .def(py::init([](const py::handle& structure, const std::string& radiation, bool anomalous,
                       bool no_debye_waller, bool amplitude, const std::string& precision,
                       const std::string& device, int threads, bool quiet) {
             auto p = std::make_unique<PyPattern2DPlan>();
             Pattern2DOptions& o = p->options;
             o.radiation = parse_radiation(radiation);
             if (anomalous && o.radiation != Radiation::xray)
               fail_at({"", 0, "--anomalous"}, "only used with --radiation xray");
             o.factors.debye_waller = !no_debye_waller;
             o.amplitude = amplitude;
             o.precision = parse_precision(precision);
             if (threads < 0) fail_at({"", 0, "--threads"}, "must be ≥ 0, got ", threads);
             o.threads = threads;
             o.quiet = quiet;
             o.device = resolve_device(device, quiet);
             p->anomalous = anomalous;
             p->structure = structure_from(structure, "structure");
             if (!anomalous) p->plan.emplace(p->structure, o);
             return p;
           }),
           py::arg("structure"), py::kw_only(), py::arg("radiation") = "xray", py::arg("anomalous") = false,
           py::arg("no_debye_waller") = false, py::arg("amplitude") = false, py::arg("precision") = "double",
           py::arg("device") = "auto", py::arg("threads") = 0, py::arg("quiet") = true)
      .def("execute",
           [](PyPattern2DPlan& p, std::optional<double> wavelength, std::optional<double> qmax, std::optional<int> nq,
              std::optional<int> nphi, std::optional<std::array<double, 3>> euler,
              std::optional<std::array<double, 9>> rotation, std::optional<std::array<double, 3>> beam, bool flat,
              std::optional<double> distance, std::optional<double> pixel_size, std::optional<int> nx,
              std::optional<int> ny, std::optional<std::array<double, 2>> beam_center, bool no_curvature) {
             GeometryArgs a{wavelength, qmax, distance, pixel_size, nq, nphi, nx, ny,
                            euler, beam, rotation, beam_center, flat, no_curvature};
             return p.execute(a);
           },
           py::kw_only(), py::arg("wavelength") = py::none(), py::arg("qmax") = py::none(),
           py::arg("nq") = py::none(), py::arg("nphi") = py::none(), py::arg("euler") = py::none(),
           py::arg("rotation") = py::none(), py::arg("beam") = py::none(), py::arg("flat") = false,
           py::arg("distance") = py::none(), py::arg("pixel_size") = py::none(), py::arg("nx") = py::none(),
           py::arg("ny") = py::none(), py::arg("beam_center") = py::none(), py::arg("no_curvature") = false)
      .def_property_readonly("device", [](const PyPattern2DPlan& p) { return std::string(to_string(p.options.device)); });
  m.def("photon_energy_kev", &photon_energy_kev, py::arg("wavelength"), "E = hc/λ (keV) of λ in Å.");
}

}  // namespace nanoscatter::python
