// `nanoscatter pattern2d`: the kinematic 2D diffraction pattern of an
// oriented particle on a polar (|q|, φ) or flat detector. Parses, checks
// every option before any work, calls the library, writes the results.
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "commands.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/output_format.hpp"
#include "nanoscatter/pattern2d.hpp"
#include "nanoscatter/stopwatch.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter::cli {
namespace {

struct Pattern2DCliOptions {
  CommonOptions common;
  std::string structure;
  double wavelength = 0;
  double qmax = 0;
  int nq = 0, nphi = 0;
  std::vector<double> euler;     // α β γ, degrees (ZYZ)
  std::vector<double> rotation;  // 9 values, row-major
  std::vector<double> beam;      // x y z
  std::string radiation = "xray";
  bool anomalous = false;
  bool no_debye_waller = false;
  bool flat = false;
  double distance = 0, pixel_size = 0;
  int nx = 0, ny = 0;
  std::vector<double> beam_center;
  bool no_curvature = false;
  bool amplitude = false;
  std::string png;
  int threads = 0;
};

bool given(const CLI::App& sub, const char* option) { return sub.count(option) > 0; }

// The output's format, checked before the work; the directory must exist.
OutputFormat checked_output(const std::string& path, const char* option, bool png_only) {
  OutputFormat format;
  try {
    format = output_format_from_path(path);
  } catch (const Error& e) {
    throw Error(Where{path, 0, option}, e.reason());
  }
  if (png_only && format != OutputFormat::png) fail_at({path, 0, option}, "must end in .png");
  if (format == OutputFormat::xyz)
    fail_at({path, 0, option}, "pattern2d writes HDF5 (.h5, .hdf5), text (.dat, .txt, .csv) or a picture (.png)");
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_at({path, 0, option}, "directory '", dir.string(), "' does not exist");
  return format;
}

Detector detector_from_options(const CLI::App& sub, const Pattern2DCliOptions& o) {
  const char* polar_options[] = {"--qmax", "--nq", "--nphi"};
  const char* flat_options[] = {"--distance", "--pixel-size", "--nx", "--ny"};
  if (o.flat) {
    for (const char* p : polar_options)
      if (given(sub, p)) fail_at({"", 0, p}, "not used with --flat");
    for (const char* f : flat_options)
      if (!given(sub, f)) fail_at({"", 0, f}, "required with --flat");
    FlatDetector flat{o.distance, o.pixel_size, o.nx, o.ny, std::nullopt};
    if (given(sub, "--beam-center")) flat.beam_center = std::array<double, 2>{o.beam_center[0], o.beam_center[1]};
    return flat;
  }
  for (const char* f : flat_options)
    if (given(sub, f)) fail_at({"", 0, f}, "only used with --flat");
  if (given(sub, "--beam-center")) fail_at({"", 0, "--beam-center"}, "only used with --flat");
  for (const char* p : polar_options)
    if (!given(sub, p)) fail_at({"", 0, p}, "required for the polar detector (or give --flat)");
  return PolarDetector{o.qmax, o.nq, o.nphi};
}

Pattern2DGeometry geometry_from_options(const CLI::App& sub, const Pattern2DCliOptions& o) {
  Pattern2DGeometry g;
  if (!given(sub, "--wavelength")) fail_at({"", 0, "--wavelength"}, "required (Å)");
  g.wavelength = o.wavelength;
  if (given(sub, "--euler") && given(sub, "--rotation"))
    fail_at({"", 0, "--rotation"}, "give either --euler or --rotation, not both");
  if (given(sub, "--euler")) g.orientation = rotation_zyz_degrees(o.euler[0], o.euler[1], o.euler[2]);
  if (given(sub, "--rotation")) {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.row[i][j] = o.rotation[std::size_t(3 * i + j)];
    g.orientation = r;
  }
  if (given(sub, "--beam")) g.beam_direction = {o.beam[0], o.beam[1], o.beam[2]};
  g.curvature = !o.no_curvature;
  g.detector = detector_from_options(sub, o);
  validate_geometry(g);
  return g;
}

void run(const CLI::App& sub, const Pattern2DCliOptions& o, const RunContext& context) {
  const DeviceRequest request = parse_device(o.common.device);
  Pattern2DOptions options;
  options.precision = parse_precision(o.common.precision);
  options.radiation = parse_radiation(o.radiation);
  options.factors.debye_waller = !o.no_debye_waller;
  options.amplitude = o.amplitude;
  const parallel::Communicator& comm = context.comm;
  options.quiet = o.common.quiet || !comm.root();  // one progress bar: rank 0's
  options.share = comm.share();
  if (o.threads < 0) fail_at({"", 0, "--threads"}, "must be ≥ 0, got ", o.threads);
  options.threads = o.threads;
  const OutputFormat format = checked_output(o.common.output, "--output", false);
  if (!o.png.empty()) checked_output(o.png, "--png", true);
  if (o.amplitude && format == OutputFormat::png)
    fail_at({o.common.output, 0, "--amplitude"}, "a .png output cannot hold the amplitude; use .h5 or text");
  const Pattern2DGeometry geometry = geometry_from_options(sub, o);
  if (o.anomalous) {
    if (options.radiation != Radiation::xray) fail_at({"", 0, "--anomalous"}, "only used with --radiation xray");
    options.factors.energy_kev = photon_energy_kev(geometry.wavelength);
  }

  const Structure structure = read_structure(o.structure);
  if (structure.atoms.empty()) fail_at({o.structure, 0, ""}, "the structure has no atoms");
  options.device = select_rank_device(request, o.common.quiet, o.common.ranks_per_gpu, context);
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
  // Under mpirun each rank computed a run of pixels and left the others 0:
  // rank 0 merges them (exactly) and alone writes.
  const double seconds = start.seconds();
  comm.merge_disjoint(result.intensity);
  if (o.amplitude)  // std::complex<double> is an array of two doubles ([complex.numbers])
    comm.merge_disjoint(std::span<double>(reinterpret_cast<double*>(result.amplitude.data()), 2 * result.amplitude.size()));
  const auto [first, last] = options.share.range(result.intensity.size());
  parallel::report_load(comm, "pattern2d", seconds, double(last - first), o.common.quiet, options.device);
  if (!comm.root()) return;
  result.seconds = seconds;
  options.share = WorkShare{};

  Pattern2DRecord record;
  record.command = context.command_line;
  record.version = context.version;
  record.structure = o.structure + (structure.title.empty() ? "" : " (" + structure.title + ")");
  record.geometry = geometry;
  record.options = options;
  switch (format) {
    case OutputFormat::hdf5: write_pattern2d_hdf5(o.common.output, result, record); break;
    case OutputFormat::text: write_pattern2d_text(o.common.output, result, record); break;
    case OutputFormat::png: write_pattern2d_png(o.common.output, result, record); break;
    case OutputFormat::xyz: break;  // refused by checked_output
  }
  if (!o.png.empty()) write_pattern2d_png(o.png, result, record);
}

}  // namespace

void add_pattern2d_command(CLI::App& app, const RunContext& context) {
  auto opts = std::make_shared<Pattern2DCliOptions>();
  auto* sub = app.add_subcommand(
      "pattern2d", "2D diffraction pattern of an oriented particle (kinematic amplitude, Ewald sphere)");
  sub->add_option("structure", opts->structure, "structure file (.xyz, .pdb, .cif)")->required();
  sub->add_option("--wavelength", opts->wavelength, "wavelength λ (Å); k = 2π/λ");
  sub->add_option("--qmax", opts->qmax, "polar detector: largest |q| (Å⁻¹), at most 4π/λ");
  sub->add_option("--nq", opts->nq, "polar detector: |q| points from 0 to qmax");
  sub->add_option("--nphi", opts->nphi, "polar detector: azimuth points over 360°");
  sub->add_option("--euler", opts->euler, "sample orientation: ZYZ Euler angles α β γ (degrees)")->expected(3);
  sub->add_option("--rotation", opts->rotation, "sample orientation: rotation matrix, 9 values row by row")
      ->expected(9);
  sub->add_option("--beam", opts->beam, "incident beam direction x y z (default 0 0 1)")->expected(3);
  sub->add_option("--radiation", opts->radiation, "xray|neutron|electron")->capture_default_str();
  sub->add_flag("--anomalous", opts->anomalous, "X-rays: add f', f'' (xraylib) at the energy hc/λ");
  sub->add_flag("--no-debye-waller", opts->no_debye_waller, "ignore the atoms' B factors");
  sub->add_flag("--flat", opts->flat, "flat detector perpendicular to the beam instead of the polar grid");
  sub->add_option("--distance", opts->distance, "flat detector: sample–detector distance (mm)");
  sub->add_option("--pixel-size", opts->pixel_size, "flat detector: pixel size (mm)");
  sub->add_option("--nx", opts->nx, "flat detector: pixels along x");
  sub->add_option("--ny", opts->ny, "flat detector: pixels along y");
  sub->add_option("--beam-center", opts->beam_center, "flat detector: beam centre cx cy (pixels; default the middle)")
      ->expected(2);
  sub->add_flag("--no-curvature", opts->no_curvature,
                "drop the Ewald-sphere curvature: q = |q| (cos φ, sin φ, 0) (small-angle limit)");
  sub->add_flag("--amplitude", opts->amplitude, "also write the complex amplitude A(q)");
  sub->add_option("--png", opts->png, "also write a log-scale quick-look picture");
  sub->add_option("--threads", opts->threads, "CPU threads (0: all)");
  add_common_options(*sub, opts->common, true, ".h5 HDF5, .dat/.txt/.csv text, .png picture");
  sub->callback([sub, opts, context] { run(*sub, *opts, context); });
}

}  // namespace nanoscatter::cli
