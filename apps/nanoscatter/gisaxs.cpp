// `nanoscatter gisaxs`: the GISAXS image of a sample file (DWBA or Born).
// Parses, checks every option before any work, calls the library, writes
// the requested files (each appears whole or not at all).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "gisaxs_formfactor.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/output_format.hpp"

namespace nanoscatter::cli {
namespace {

struct GisaxsCliOptions {
  CommonOptions common;
  std::string sample;
  std::string approximation = "dwba";
  std::string png, text;
  int threads = 0;
  std::string max_device_memory;  // "" = half the free device memory
  bool formfactor_only = false;
  std::string qx, qy, qz;         // --formfactor-only grid axes
};

struct Output {
  std::string path;
  OutputFormat format;
};

// The format from the extension (text, HDF5 or PNG) and an existing directory.
Output checked_output(const std::string& path, const char* option, std::optional<OutputFormat> required) {
  OutputFormat format;
  try {
    format = output_format_from_path(path);
  } catch (const Error& e) {
    throw Error(Where{path, 0, option}, e.reason());
  }
  if (format == OutputFormat::xyz || (required && format != *required))
    fail_at({path, 0, option},
            required ? std::string("expects a ") + std::string(to_string(*required)) + " file name"
                     : std::string("gisaxs writes HDF5 (.h5, .hdf5), text (.txt, .dat) or PNG (.png)"));
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_at({path, 0, option}, "directory '", dir.string(), "' does not exist");
  return {path, format};
}

std::string describe_detector(const gisaxs::PixelGrid& g) {
  std::ostringstream os;
  os << "detector: " << g.cols << " x " << g.rows << " pixels, " << g.horizontal_name << " [" << g.horizontal_unit
     << "] from " << g.horizontal.front() << " to " << g.horizontal.back() << ", " << g.vertical_name << " ["
     << g.vertical_unit << "] from " << g.vertical.front() << " to " << g.vertical.back() << " (pixel centres)";
  return os.str();
}

void run(const GisaxsCliOptions& o, const RunContext& context) {
  // Every option first, so that bad input costs no work and leaves no file.
  gisaxs::GisaxsOptions options;
  options.approximation = gisaxs::parse_approximation(o.approximation);
  if (o.threads < 0) fail_at({"", 0, "--threads"}, "must be ≥ 0 (0: all cores), got ", o.threads);
  options.threads = o.threads;
  const parallel::Communicator& comm = context.comm;
  options.quiet = o.common.quiet || !comm.root();  // one progress bar: rank 0's
  options.share = comm.share();
  std::vector<Output> outputs{checked_output(o.common.output, "--output", std::nullopt)};
  if (!o.png.empty()) outputs.push_back(checked_output(o.png, "--png", OutputFormat::png));
  if (!o.text.empty()) outputs.push_back(checked_output(o.text, "--text", OutputFormat::text));
  const DeviceRequest device = parse_device(o.common.device);
  options.precision = parse_precision(o.common.precision);
  if (!o.max_device_memory.empty())
    options.max_device_memory = parse_memory_size(o.max_device_memory, "--max-device-memory");
  // The GPU computes mesh form factors (the rest stays on the CPU); auto
  // falls back to the CPU without a notice, as the CPU runs most of it anyway.
  options.device = select_rank_device(device, o.common.quiet || device == DeviceRequest::automatic,
                                      o.common.ranks_per_gpu, context);
  if (o.formfactor_only) {
    GisaxsFormFactorCli f{o.sample, o.common.output, o.qx, o.qy, o.qz, options.device, options.precision,
                          options.max_device_memory, o.threads, o.common.quiet};
    run_gisaxs_formfactor(f, context);
    return;
  }

  const gisaxs::Sample sample = gisaxs::read_sample(o.sample);
  if (comm.distributed()) {
    // About 8 blocks per rank, so that round-robin dealing balances small
    // images too (never below 64 pixels, never above the default block).
    const std::size_t pixels = gisaxs::make_pixel_grid(sample.detector, sample.beam).size();
    const std::size_t wanted = (pixels + 8 * std::size_t(comm.size()) - 1) / (8 * std::size_t(comm.size()));
    options.block_pixels = std::clamp<std::size_t>(wanted, 64, options.block_pixels);
  }
  const gisaxs::GisaxsPlan plan(sample, options);
  gisaxs::GisaxsResult result = plan.execute();
  // Under mpirun each rank computed its blocks and left the other pixels 0:
  // rank 0 merges them (exactly) and alone writes.
  comm.merge_disjoint(result.intensity);
  std::size_t mine = 0;
  for (std::size_t b = 0; b * options.block_pixels < result.intensity.size(); ++b)
    if (options.share.owns(b)) mine += std::min(options.block_pixels, result.intensity.size() - b * options.block_pixels);
  parallel::report_load(comm, "gisaxs", result.seconds, double(mine), o.common.quiet, options.device);
  if (!comm.root()) return;

  gisaxs::OutputInfo info;
  std::ostringstream os;
  info.header_lines.push_back(std::string("nanoscatter gisaxs: ") +
                              (options.approximation == gisaxs::Approximation::dwba
                                   ? "distorted-wave Born approximation"
                                   : "Born approximation"));
  info.header_lines.push_back("command: " + context.command_line);
  info.header_lines.push_back("version: nanoscatter " + context.version);
  info.header_lines.push_back("sample: " + o.sample);
  os.precision(10);
  os << "beam: wavelength " << sample.beam.wavelength << " nm, alpha_i "
     << sample.beam.alpha_i * 180 / std::numbers::pi << " deg, phi_i " << sample.beam.phi_i * 180 / std::numbers::pi
     << " deg, intensity " << sample.beam.intensity;
  info.header_lines.push_back(os.str());
  info.header_lines.push_back(describe_detector(result.pixels));
  os.str("");
  os << "layers: " << sample.layers.size() << ", particle kinds: " << result.particle_kinds << ", time: "
     << result.seconds << " s";
  info.header_lines.push_back(os.str());

  for (const Output& out : outputs) {
    switch (out.format) {
      case OutputFormat::hdf5: gisaxs::write_hdf5(out.path, result, info); break;
      case OutputFormat::text: gisaxs::write_text(out.path, result, info); break;
      case OutputFormat::png: gisaxs::write_png(out.path, result, info); break;
      case OutputFormat::xyz: break;  // rejected above
    }
  }
  if (!o.common.quiet)
    std::fprintf(stderr, "gisaxs: %zu x %zu pixels, %zu particle kind(s), %s, %.3f s -> %s\n", result.cols,
                 result.rows, result.particle_kinds, gisaxs::to_string(options.approximation), result.seconds,
                 o.common.output.c_str());
}

}  // namespace

void add_gisaxs_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("gisaxs", "GISAXS image of particles on or in a multilayer (DWBA or Born)");
  auto options = std::make_shared<GisaxsCliOptions>();
  GisaxsCliOptions& o = *options;
  sub->add_option("sample", o.sample, "sample description (TOML, see docs/gisaxs.md)")->required();
  add_common_options(*sub, o.common, /*with_precision=*/true, ".h5 HDF5, .txt/.dat text, .png picture");
  sub->add_option("--approximation", o.approximation, "dwba|born")->capture_default_str();
  sub->add_option("--png", o.png, "also write a log-scale picture (.png)");
  sub->add_option("--text", o.text, "also write the image as text in BornAgain's layout (.txt, .dat)");
  sub->add_option("--threads", o.threads, "CPU threads (0: all)")->capture_default_str();
  sub->add_option("--max-device-memory", o.max_device_memory, "GPU memory cap for mesh kernels (bytes, or 512M, 2G)");
  sub->add_flag("--formfactor-only", o.formfactor_only,
                "write F(q) of the first particle on the --qx/--qy/--qz grid to HDF5 instead of an image");
  sub->add_option("--qx", o.qx, "--formfactor-only grid axis: min,max,n (1/nm)");
  sub->add_option("--qy", o.qy, "--formfactor-only grid axis: min,max,n (1/nm)");
  sub->add_option("--qz", o.qz, "--formfactor-only grid axis: min,max,n (1/nm)");
  sub->callback([options, context] { run(*options, context); });
}

}  // namespace nanoscatter::cli
