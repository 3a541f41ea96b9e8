// RMC engine: RmcPlan(target, mask=None, loading=..., **options).execute();
// target and mask are 2D NumPy arrays or file specs as `nanoscatter rmc
// --target/--mask` takes them; the other options carry the CLI's names and
// are checked by the library (RmcOptions::validate).
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "keywords.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/rmc.hpp"
#include "nanoscatter/rmc_output.hpp"

namespace nanoscatter::python {
namespace {

Image2D image_from(const py::handle& obj, const char* field) {
  if (py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__")) return read_image(py::str(obj).cast<std::string>());
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 2) fail_at({"", 0, field, true}, "expected a 2D array or an image file name");
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

// The engine's keywords: RmcOptions' and TargetOptions' fields by the
// CLI's names (tile, crop, multires, cluster), the strings the library
// parses (layout, resample, schedule, temperature), the device keywords but
// precision (rmc has no choice: float64 on the CPU, float32 on a GPU), and
// comm. The checks are RmcOptions::validate's and the plan's.
const std::vector<std::string> kRmcKeywords = {
    "loading", "tile", "crop", "layout", "resample", "tiles", "steps", "seed", "max_distance", "schedule",
    "temperature", "final_ratio", "target_acceptance", "probe_moves", "multires", "multires_steps",
    "refresh_interval", "trace_interval", "cluster", "loading_scan", "chi2_scale", "scale", "keep_zero_q",
    "initial_model"};

std::vector<std::string> rmc_keywords() {
  std::vector<std::string> names = with_device_keywords(kRmcKeywords);
  std::erase(names, "precision");
  names.push_back("comm");
  return names;
}

RmcOptions rmc_options(const Keywords& kw, const py::kwargs& kwargs) {
  RmcOptions o;
  // A number or a list; required unless loading_scan or initial_model gives
  // it (RmcOptions::validate and rmc_initial_model say so).
  if (kw.has("loading") && !kw.is_none("loading")) {
    if (py::isinstance<py::sequence>(kwargs["loading"])) {
      kw.get("loading", o.loading);
    } else {
      double l = 0;
      kw.get("loading", l);
      o.loading = {l};
    }
  }
  // "start:stop:step" as the CLI takes it, or a list of loadings.
  kw.get_value_or_text("loading_scan", o.loading_scan, parse_loading_scan);
  kw.get_parsed("chi2_scale", o.chi2_scale, parse_chi2_scale);
  kw.get("scale", o.scale);
  kw.get("keep_zero_q", o.keep_zero_q);
  kw.get("tiles", o.tiles);
  kw.get("steps", o.steps);
  kw.get("seed", o.seed);
  kw.get("max_distance", o.max_distance);
  kw.get_parsed("schedule", o.schedule, parse_cooling_schedule);
  // A number, or a string the CLI would take ("auto", "0.01"); None: auto.
  kw.get_value_or_text("temperature", o.temperature, parse_rmc_temperature);
  kw.get("final_ratio", o.final_ratio);
  kw.get("target_acceptance", o.target_acceptance);
  kw.get("probe_moves", o.probe_moves);
  kw.get("multires", o.multires_levels);
  kw.get("multires_steps", o.multires_steps);
  kw.get("refresh_interval", o.refresh_interval);
  kw.get("trace_interval", o.trace_interval);
  kw.get("cluster", o.cluster_size);
  kw.get_device(o.compute);
  return o;
}

TargetOptions target_options(const Keywords& kw) {
  TargetOptions t;
  kw.get("tile", t.model_size);
  kw.get("crop", t.crop_to_square);
  kw.get_parsed("layout", t.layout, parse_target_layout);
  kw.get_parsed("resample", t.resample, parse_resample);
  return t;
}

// The plan with its ranks and its last result (for write_outputs).
struct PyRmcPlan {
  RmcPlan plan;
  parallel::Communicator comm;
  std::optional<RmcResult> last;
  PyRmcPlan(RmcPlan p, parallel::Communicator c) : plan(std::move(p)), comm(std::move(c)) {}

  // The CLI's output directory from the last result (rank 0 only).
  void write(const std::string& dir, const std::string& command) const {
    if (!comm.root()) return;
    RmcOptions whole = plan.options();
    whole.share = WorkShare{};
    const RunRecord record{"rmc", command, rmc_run_lines(plan.target(), whole, *last)};
    write_rmc_outputs(dir, *last, plan.target(), whole, record);
  }

  // output_dir: also write the folder the CLI's --output would.
  py::dict execute(const std::string& output_dir) {
    if (!output_dir.empty()) check_rmc_output_dir(output_dir);
    const std::string command = output_dir.empty() ? "" : python_command();  // with the GIL
    {
      py::gil_scoped_release release;
      RmcResult r = plan.execute();
      r.reduce(comm);
      last = std::move(r);
      if (!output_dir.empty()) write(output_dir, command);
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
      td["chi2_free"] = t.chi2_free;
      td["final_acceptance"] = t.final_acceptance;
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
    if (!plan.options().loading_scan.empty()) {
      RmcLoadingScan scan = rmc_loading_scan(*last, plan.options());
      py::dict sd;
      sd["loading"] = to_numpy(std::move(scan.loading));
      sd["chi2"] = to_numpy(std::move(scan.chi2));
      sd["chi2_free"] = to_numpy(std::move(scan.chi2_free));
      sd["best_loading"] = scan.best_loading;
      sd["best_chi2"] = scan.best_chi2;
      sd["refined_loading"] = scan.refined_loading;
      sd["refined"] = scan.refined;
      d["loading_scan"] = sd;
    }
    return d;
  }
};

}  // namespace

void bind_rmc(py::module_& m) {
  py::class_<PyRmcPlan>(m, "RmcPlan",
                        "RmcPlan(target, mask=None, *, loading, tile=0, crop=False, layout='centred', "
                        "resample='crop', tiles=1, steps=100000, seed=1, max_distance=0, schedule='exponential', "
                        "temperature='auto', final_ratio=1e-3, target_acceptance=0.8, probe_moves=256, multires=0, "
                        "multires_steps=0, refresh_interval=20000, trace_interval=0, loading_scan=None, "
                        "chi2_scale='free', scale=1, keep_zero_q=False, initial_model=None, device='auto', threads=0, "
                        "cluster=0, max_device_memory=0, quiet=True, comm=None): comm=nanoscatter.world() shares "
                        "the tiles over the MPI ranks")
      .def(py::init([](const py::object& target, const py::object& mask, const py::kwargs& kwargs) {
             const Keywords kw(kwargs, rmc_keywords(), "RmcPlan");
             const parallel::Communicator comm = kw.communicator();
             RmcOptions o = rmc_options(kw, kwargs);
             o.share = comm.share();
             // An initial model may give the loading (checked with the target's size below).
             const bool has_model = kw.has("initial_model") && !kw.is_none("initial_model");
             const bool loading_from_model = has_model && o.loading.empty() && o.loading_scan.empty();
             if (loading_from_model) o.loading = {0.5};
             o.validate();  // before reading the images: bad options cost no work
             if (loading_from_model) o.loading.clear();
             const TargetOptions t = target_options(kw);
             const std::string image_name = py::isinstance<py::str>(target) ? target.cast<std::string>() : "";
             const std::string mask_name = py::isinstance<py::str>(mask) ? mask.cast<std::string>() : "";
             Image2D image = image_from(target, "target");
             std::optional<Image2D> mask_image;
             if (!mask.is_none()) mask_image = image_from(mask, "mask");
             RmcTarget rt = make_rmc_target(std::move(image), mask_image ? &*mask_image : nullptr, t, image_name, mask_name);
             if (rt.source.empty()) rt.source = "array";
             std::vector<std::uint8_t> initial;
             if (has_model) {
               const py::object model = kwargs["initial_model"];
               const std::string model_name = py::isinstance<py::str>(model) ? model.cast<std::string>() : "";
               initial = rmc_initial_model(image_from(model, "initial_model"), rt.size, o, model_name);
             }
             auto* plan = new PyRmcPlan(RmcPlan(std::move(rt), o), comm);
             if (!initial.empty())
               plan->plan.set_initial_occupancy(std::vector<std::vector<std::uint8_t>>(o.tiles, initial));
             return plan;
           }),
           py::arg("target"), py::arg("mask") = py::none())
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
      .def("execute", &PyRmcPlan::execute, py::kw_only(), py::arg("output") = "")
      .def_property_readonly("target", [](const PyRmcPlan& p) {
        const RmcTarget& t = p.plan.target();
        auto v = t.intensity;
        return to_numpy(std::move(v), {py::ssize_t(t.size), py::ssize_t(t.size)});
      }, "the N×N target (centred layout, NaN where masked)")
      .def("write_outputs",
           [](const PyRmcPlan& p, const std::string& dir, const std::optional<std::string>& command_line) {
             if (!p.last) fail_at({"", 0, "write_outputs"}, "call execute() first");
             const std::string command = command_line ? *command_line : python_command();
             py::gil_scoped_release release;
             p.write(dir, command);
           },
           py::arg("output"), py::arg("command_line") = py::none());

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
