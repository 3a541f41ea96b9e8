// RMC engine: RmcPlan(target, mask=None, loading=..., **options).execute();
// target and mask are 2D NumPy arrays or file specs as `nanoscatter rmc
// --target/--mask` takes them; the other options carry the CLI's names.
#include <pybind11/stl.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bindings.hpp"
#include "nanoscatter/rmc.hpp"

namespace nanoscatter::python {
namespace {

Image2D image_from(const py::handle& obj, const char* field) {
  if (py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__")) return read_image(py::str(obj).cast<std::string>());
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 2) fail_at({"", 0, field}, "expected a 2D array or an image file name");
  Image2D image;
  image.rows = std::size_t(a.shape(0));
  image.cols = std::size_t(a.shape(1));
  image.data.assign(a.data(), a.data() + a.size());
  return image;
}

std::vector<std::uint8_t> occupancy_from(const py::handle& obj, std::size_t& n) {
  auto a = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 2 || a.shape(0) != a.shape(1)) fail_at({"", 0, "occupancy"}, "expected a square 2D array");
  n = std::size_t(a.shape(0));
  return std::vector<std::uint8_t>(a.data(), a.data() + a.size());
}

struct PyRmcPlan {
  RmcPlan plan;
  std::optional<RmcResult> last;
  explicit PyRmcPlan(RmcPlan p) : plan(std::move(p)) {}

  py::dict execute() {
    {
      py::gil_scoped_release release;
      last = plan.execute();
    }
    RmcResult r = *last;  // kept whole for write_outputs
    const auto n = py::ssize_t(r.size);
    py::dict d;
    d["size"] = r.size;
    d["device"] = std::string(to_string(r.device));
    py::list tiles;
    for (auto& t : r.tiles) {
      py::dict td;
      td["loading"] = t.loading;
      td["particles"] = t.particles;
      td["occupancy"] = to_numpy(std::move(t.occupancy), {n, n});
      td["temperature"] = t.temperature;
      td["chi2_initial"] = t.chi2_initial;
      td["chi2_final"] = t.chi2_final;
      td["scale"] = t.scale;
      td["tried"] = t.tried;
      td["accepted"] = t.accepted;
      td["blocked"] = t.blocked;
      tiles.append(td);
    }
    d["tiles"] = tiles;
    std::vector<double> trace;
    for (const auto& row : r.trace) trace.insert(trace.end(), row.begin(), row.end());
    const auto points = py::ssize_t(r.trace_moves.size());
    d["trace_moves"] = to_numpy(std::move(r.trace_moves));
    d["trace"] = to_numpy(std::move(trace), {py::ssize_t(r.trace.size()), points});
    d["seconds"] = r.seconds;
    d["move_seconds"] = r.move_seconds;
    return d;
  }
};

}  // namespace

void bind_rmc(py::module_& m) {
  py::class_<PyRmcPlan>(m, "RmcPlan")
      .def(py::init([](const py::object& target, const py::object& mask, std::vector<double> loading,
                       std::size_t tile, bool crop, const std::string& layout, const std::string& resample,
                       std::size_t tiles, std::uint64_t steps, std::uint64_t seed, double max_distance,
                       const std::string& schedule, const py::object& temperature, double final_ratio,
                       double target_acceptance, std::uint64_t probe_moves, int multires,
                       std::uint64_t multires_steps, std::uint64_t refresh_interval, std::uint64_t trace_interval,
                       const std::string& device, int threads, int cluster, bool quiet) {
             RmcOptions o;
             o.tiles = tiles;
             o.loading = loading;
             o.steps = steps;
             o.seed = seed;
             o.max_distance = max_distance;
             o.schedule = parse_cooling_schedule(schedule);
             if (!temperature.is_none() && !(py::isinstance<py::str>(temperature) && temperature.cast<std::string>() == "auto")) {
               if (py::isinstance<py::str>(temperature))
                 fail_at({"", 0, "--temperature"}, "expected a number or 'auto', got '", temperature.cast<std::string>(), "'");
               o.temperature = temperature.cast<double>();
             }
             o.final_ratio = final_ratio;
             o.target_acceptance = target_acceptance;
             o.probe_moves = probe_moves;
             o.multires_levels = multires;
             o.multires_steps = multires_steps;
             o.refresh_interval = refresh_interval;
             o.trace_interval = trace_interval;
             o.threads = threads;
             o.cluster_size = cluster;
             o.quiet = quiet;
             TargetOptions t;
             t.model_size = tile;
             t.crop_to_square = crop;
             t.layout = parse_target_layout(layout);
             t.resample = parse_resample(resample);
             const std::string image_name = py::isinstance<py::str>(target) ? target.cast<std::string>() : "";
             const std::string mask_name = py::isinstance<py::str>(mask) ? mask.cast<std::string>() : "";
             Image2D image = image_from(target, "--target");
             std::optional<Image2D> mask_image;
             if (!mask.is_none()) mask_image = image_from(mask, "--mask");
             RmcTarget rt = make_rmc_target(std::move(image), mask_image ? &*mask_image : nullptr, t, image_name, mask_name);
             if (rt.source.empty()) rt.source = "array";
             o.device = resolve_device(device, quiet);
             return new PyRmcPlan(RmcPlan(std::move(rt), o));
           }),
           py::arg("target"), py::arg("mask") = py::none(), py::kw_only(), py::arg("loading"),
           py::arg("tile") = 0, py::arg("crop") = false, py::arg("layout") = "centred", py::arg("resample") = "crop",
           py::arg("tiles") = 1, py::arg("steps") = 100000, py::arg("seed") = 1, py::arg("max_distance") = 0.0,
           py::arg("schedule") = "exponential", py::arg("temperature") = "auto", py::arg("final_ratio") = 1e-3,
           py::arg("target_acceptance") = 0.8, py::arg("probe_moves") = 256, py::arg("multires") = 0,
           py::arg("multires_steps") = 0, py::arg("refresh_interval") = 20000, py::arg("trace_interval") = 0,
           py::arg("device") = "auto", py::arg("threads") = 0, py::arg("cluster") = 0, py::arg("quiet") = true)
      .def("set_initial_occupancy",
           [](PyRmcPlan& p, const py::list& tiles) {
             std::vector<std::vector<std::uint8_t>> occ;
             for (const auto& t : tiles) {
               std::size_t n = 0;
               occ.push_back(occupancy_from(t, n));
             }
             p.plan.set_initial_occupancy(std::move(occ));
           },
           py::arg("occupancy"), "One N×N 0/1 array per tile.")
      .def("execute", &PyRmcPlan::execute)
      .def_property_readonly("target", [](const PyRmcPlan& p) {
        const RmcTarget& t = p.plan.target();
        auto v = t.intensity;
        return to_numpy(std::move(v), {py::ssize_t(t.size), py::ssize_t(t.size)});
      }, "the N×N target (centred layout, NaN where masked)")
      .def("write_outputs",
           [](const PyRmcPlan& p, const std::string& dir, const std::string& command_line) {
             if (!p.last) fail_at({"", 0, "--output-dir"}, "execute() first");
             std::filesystem::create_directories(dir);
             write_rmc_outputs(dir, *p.last, p.plan.target(), RmcRecord{command_line, NANOSCATTER_VERSION, p.plan.options()});
           },
           py::arg("output_dir"), py::arg("command_line") = "nanoscatter (Python)");

  m.def("rmc_model_intensity",
        [](const py::handle& occupancy, double scale) {
          std::size_t n = 0;
          const auto occ = occupancy_from(occupancy, n);
          return to_numpy(rmc_model_intensity(occ, n, scale), {py::ssize_t(n), py::ssize_t(n)});
        },
        py::arg("occupancy"), py::arg("scale") = 1.0, "s·|FFT2(A)|², centred layout.");
  m.def("radial_average",
        [](const py::handle& image) {
          auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(image);
          if (!a || a.ndim() != 2 || a.shape(0) != a.shape(1)) fail_at({"", 0, "image"}, "expected a square 2D array");
          std::vector<double> v(a.data(), a.data() + a.size());
          return to_numpy(radial_average(v, std::size_t(a.shape(0))));
        },
        py::arg("image"), "Ring averages b = 0..N/2 (pixels) of a centred image; NaN pixels left out.");
  m.def("pair_correlation",
        [](const py::handle& occupancy) {
          std::size_t n = 0;
          const auto occ = occupancy_from(occupancy, n);
          PairCorrelation pc = pair_correlation(occ, n);
          return py::make_tuple(to_numpy(std::move(pc.r)), to_numpy(std::move(pc.g)));
        },
        py::arg("occupancy"), "(r, g(r)) of an occupancy on the periodic lattice (lattice units).");
}

}  // namespace nanoscatter::python
