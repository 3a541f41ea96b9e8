// `nanoscatter pattern2d`: the kinematic 2D diffraction pattern of an
// oriented particle on a polar (|q|, φ) or flat detector. Binds the flags to
// the library's options, calls the plan, writes the results with the
// library's writers; the checks are the library's.
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "unit_options.hpp"
#include "memory_size.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/pattern2d_output.hpp"
#include "nanoscatter/stopwatch.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter::cli {
namespace {

// Flags that set a field of the library's options are bound to it; the rest
// are the CLI's own (strings the library parses, file names).
struct Pattern2DCliOptions {
  CommonOptions common;
  Pattern2DOptions engine;
  Pattern2DGeometryOptions geometry;
  std::string structure;
  std::string radiation = "xray";
  bool no_debye_waller = false;
  std::string png;
};

void run(const Pattern2DCliOptions& o, const RunContext& context) {
  // Every option first, so that bad input costs no work and leaves no file
  // (the checks are the library's; the plan validates its options again).
  const DeviceRequest request = parse_device(o.common.device);
  Pattern2DOptions options = o.engine;
  options.compute.precision = parse_precision(o.common.precision);
  options.radiation = parse_radiation(o.radiation);
  options.factors.debye_waller = !o.no_debye_waller;
  const parallel::Communicator& comm = context.comm;
  options.compute.quiet = o.common.quiet || !comm.root();  // one progress bar: rank 0's
  options.share = comm.share();
  options.validate();
  check_pattern2d_outputs(o.common.output, o.png, options);
  const Pattern2DGeometry geometry = make_pattern2d_geometry(o.geometry);

  const Structure structure = read_structure(o.structure);
  // Before the device is chosen (which may print a notice), so that an empty
  // file gets exactly one line; the plan refuses it too.
  if (structure.atoms.empty()) fail_at({o.structure, 0, ""}, "the structure has no atoms");
  options.compute.device = select_rank_device(request, o.common.ranks_per_gpu, context);
  Pattern2DResult result;
  const Stopwatch start;
  try {
    const Pattern2DPlan plan(structure, options);
    result = plan.execute(geometry);
  } catch (const Error& e) {
    // Atom-level problems ("atom 3: ...") belong to the structure file.
    if (e.where().file.empty() && e.where().field.rfind("atom ", 0) == 0) rethrow_with(e, {o.structure, 0, ""});
    throw;
  }
  // Under mpirun each rank computed a run of pixels: the runs are merged
  // (exactly), and rank 0 alone goes on to write.
  const double seconds = start.seconds();
  const auto [first, last] = options.share.range(result.intensity.size());
  parallel::report_load(comm, "pattern2d", seconds, double(last - first), o.common.quiet, options.compute.device);
  result.reduce(comm);
  if (!comm.root()) return;
  result.seconds = seconds;
  options.share = WorkShare{};

  const RunRecord record{"pattern2d", context.command_line,
                         pattern2d_run_lines(o.structure, structure.title, structure.has_b_factors(), result, geometry, options)};
  write_pattern2d(o.common.output, result, record, geometry, options);
  if (!o.png.empty()) write_pattern2d(o.png, result, record, geometry, options);
}

}  // namespace

void add_pattern2d_command(CLI::App& app, const RunContext& context) {
  auto opts = std::make_shared<Pattern2DCliOptions>();
  Pattern2DCliOptions& o = *opts;
  Pattern2DGeometryOptions& g = o.geometry;
  auto* sub = app.add_subcommand(
      "pattern2d", "2D diffraction pattern of an oriented particle (kinematic amplitude, Ewald sphere)");
  sub->add_option("structure", o.structure, "structure file (.xyz, .pdb, .cif)")->required();
  add_quantity_option(*sub, "--wavelength", g.wavelength, wavelength_in(units::Length::angstrom),
                      "wavelength λ (Å, or 0.1nm, 12.4keV); k = 2π/λ");
  sub->add_option("--qmax", g.qmax, "polar detector: largest |q| (Å⁻¹), at most 4π/λ");
  sub->add_option("--nq", g.nq, "polar detector: |q| points from 0 to qmax");
  sub->add_option("--nphi", g.nphi, "polar detector: azimuth points over 360°");
  add_quantities_option(*sub, "--euler-zyz", g.euler_zyz, angle_in(units::Angle::deg),
                        "sample orientation: ZYZ Euler angles α β γ (degrees, or 0.5rad)")
      ->expected(3);
  sub->add_option_function<std::vector<double>>(
         "--euler",
         [geometry = &g](const std::vector<double>& angles) {
           warn_renamed("--euler", "--euler-zyz");
           geometry->euler_zyz = angles;
         },
         "deprecated: use --euler-zyz")
      ->expected(3);
  sub->add_option("--rotation", g.rotation, "sample orientation: rotation matrix, 9 values row by row")->expected(9);
  sub->add_option("--beam", g.beam, "incident beam direction x y z (default 0 0 1)")->expected(3);
  sub->add_option("--radiation", o.radiation, "xray|neutron|electron")->capture_default_str();
  sub->add_flag("--anomalous", o.engine.anomalous, "X-rays: add f', f'' (xraylib) at the energy hc/λ");
  sub->add_flag("--no-debye-waller", o.no_debye_waller, "ignore the atoms' B factors");
  sub->add_flag("--flat", g.flat, "flat detector perpendicular to the beam instead of the polar grid");
  add_quantity_option(*sub, "--distance", g.distance, length_in(units::Length::mm), "flat detector: sample–detector distance (mm, or 1.5m)");
  add_quantity_option(*sub, "--pixel-size", g.pixel_size, length_in(units::Length::mm), "flat detector: pixel size (mm, or 75um)");
  sub->add_option("--nx", g.nx, "flat detector: pixels along x");
  sub->add_option("--ny", g.ny, "flat detector: pixels along y");
  sub->add_option("--direct-beam", g.direct_beam,
                  "flat detector: where the direct beam hits, x y in pixels from the lower-left corner (default the "
                  "middle)")
      ->expected(2);
  sub->add_option_function<std::vector<double>>(
         "--beam-center",
         [geometry = &g](const std::vector<double>& centre) {
           warn_renamed("--beam-center", "--direct-beam (pixels from the corner: add 0.5 to each value)");
           // The old option counted from pixel (0, 0)'s centre, half a pixel
           // in from the corner.
           constexpr double kHalfPixel = 0.5;
           geometry->direct_beam.clear();
           for (double c : centre) geometry->direct_beam.push_back(c + kHalfPixel);
         },
         "deprecated: use --direct-beam")
      ->expected(2);
  sub->add_flag("--no-curvature", g.no_curvature,
                "drop the Ewald-sphere curvature: q = |q| (cos φ, sin φ, 0) (small-angle limit)");
  sub->add_flag("--amplitude", o.engine.amplitude, "also write the complex amplitude A(q)");
  sub->add_option("--png", o.png, "also write a log-scale quick-look picture");
  add_compute_options(*sub, o.engine.compute);
  add_common_options(*sub, o.common, true, ".h5 HDF5, .dat/.txt/.csv text, .png picture");
  sub->callback([opts, context] { run(*opts, context); });
}

}  // namespace nanoscatter::cli
