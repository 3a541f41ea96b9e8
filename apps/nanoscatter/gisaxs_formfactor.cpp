#include "gisaxs_formfactor.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "nanoscatter/output_format.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/stopwatch.hpp"

namespace nanoscatter::cli {

namespace {

// "min,max,n": n points from min to max (n = 1: min alone).
std::vector<double> parse_axis(const std::string& text, const char* option) {
  if (text.empty()) fail_at({"", 0, option}, "required with --formfactor-only: give min,max,n (nm⁻¹, points)");
  std::vector<double> v;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    try {
      std::size_t used = 0;
      v.push_back(std::stod(part, &used));
      if (part.find_first_not_of(" \t", used) != std::string::npos) throw std::invalid_argument(part);
    } catch (const std::exception&) {
      fail_at({"", 0, option}, "'", part, "' is not a number (give min,max,n)");
    }
  }
  if (v.size() != 3) fail_at({"", 0, option}, "give min,max,n (three numbers), got '", text, "'");
  if (!std::isfinite(v[0]) || !std::isfinite(v[1])) fail_at({"", 0, option}, "min and max must be finite");
  if (v[2] != std::floor(v[2]) || v[2] < 0 || v[2] > 1e9)
    fail_at({"", 0, option}, "the number of points must be a whole number, got ", v[2]);
  const auto n = static_cast<std::size_t>(v[2]);
  if (n == 0) fail_at({"", 0, option}, "the grid has 0 points along this axis (need ≥ 1)");
  if (n > 1 && !(v[1] > v[0])) fail_at({"", 0, option}, "max must exceed min");
  std::vector<double> axis(n);
  for (std::size_t i = 0; i < n; ++i) axis[i] = n == 1 ? v[0] : v[0] + (v[1] - v[0]) * double(i) / double(n - 1);
  return axis;
}

}  // namespace

std::size_t parse_memory_size(const std::string& text, const char* option) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    fail_at({"", 0, option}, "'", text, "' is not a size (bytes, or with K, M, G)");
  }
  std::string unit = text.substr(used);
  double scale = 1;
  if (unit == "" || unit == "B") scale = 1;
  else if (unit == "K" || unit == "KiB" || unit == "k") scale = 1024.0;
  else if (unit == "M" || unit == "MiB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "GiB") scale = 1024.0 * 1024 * 1024;
  else fail_at({"", 0, option}, "unknown unit '", unit, "' (K, M, G: powers of 1024)");
  if (!(value > 0) || !std::isfinite(value)) fail_at({"", 0, option}, "must be positive, got '", text, "'");
  return static_cast<std::size_t>(value * scale);
}

void run_gisaxs_formfactor(const GisaxsFormFactorCli& o, const RunContext& context) {
  // Options first: bad input costs no work and leaves no file.
  gisaxs::QGrid3D grid;
  grid.qx = parse_axis(o.qx, "--qx");
  grid.qy = parse_axis(o.qy, "--qy");
  grid.qz = parse_axis(o.qz, "--qz");
  OutputFormat format;
  try {
    format = output_format_from_path(o.output);
  } catch (const Error& e) {
    throw Error(Where{o.output, 0, "--output"}, e.reason());
  }
  if (format != OutputFormat::hdf5) fail_at({o.output, 0, "--output"}, "--formfactor-only writes HDF5 (.h5, .hdf5)");
  const auto dir = std::filesystem::path(o.output).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_at({o.output, 0, "--output"}, "directory '", dir.string(), "' does not exist");

  const gisaxs::Sample sample = gisaxs::read_sample(o.sample);
  const gisaxs::ParticleSpec& p = sample.layouts.at(0).particles.at(0);
  std::shared_ptr<const gisaxs::FormFactor> shape = p.mesh;
  if (!shape) {
    const gisaxs::ShapeInfo* info = gisaxs::find_shape(p.shape);
    shape = info->build(p.parameters).front().form_factor;
  }
  gisaxs::MeshFormFactorOptions mo;
  mo.device = o.device;
  mo.precision = o.precision;
  mo.max_device_memory = o.max_device_memory;
  mo.threads = o.threads;
  mo.quiet = o.quiet || !context.comm.root();
  gisaxs::MeshRunStats stats;
  // Under mpirun each rank computes a contiguous slab of qx planes (the
  // array is [nx][ny][nz], so a slab is one contiguous run) and rank 0
  // gathers the slabs in rank order: the same numbers as one process.
  const parallel::Communicator& comm = context.comm;
  const auto [x0, x1] = comm.share().range(grid.qx.size());
  gisaxs::QGrid3D slab = grid;
  slab.qx.assign(grid.qx.begin() + std::ptrdiff_t(x0), grid.qx.begin() + std::ptrdiff_t(x1));
  const Stopwatch start;
  std::vector<gisaxs::Complex> f;
  if (!slab.qx.empty()) f = gisaxs::formfactor_on_grid(*shape, slab, mo, &stats);
  const double seconds = start.seconds();
  if (comm.distributed()) {
    parallel::ByteWriter mine;
    mine.put_vector(f);
    const auto parts = comm.gather(mine.bytes());
    parallel::report_load(comm, "gisaxs --formfactor-only", seconds, double(slab.size()), o.quiet, o.device);
    if (!comm.root()) return;
    f.clear();
    f.reserve(grid.size());
    for (const auto& part : parts) {
      parallel::ByteReader reader(part);
      const auto piece = reader.get_vector<gisaxs::Complex>();
      f.insert(f.end(), piece.begin(), piece.end());
    }
  }
  std::ostringstream os;
  os << "grid " << grid.qx.size() << " x " << grid.qy.size() << " x " << grid.qz.size() << ", device "
     << to_string(o.device) << ", precision " << to_string(o.precision) << ", hyperblocks " << stats.hyperblocks
     << ", time " << seconds << " s";
  const std::vector<std::string> header{"nanoscatter gisaxs --formfactor-only: F(q) of layout[0].particle[0]",
                                        "command: " + context.command_line,
                                        "version: nanoscatter " + context.version, "sample: " + o.sample, os.str()};
  gisaxs::write_formfactor_hdf5(o.output, grid, f, shape->describe(), header);
  if (!o.quiet)
    std::fprintf(stderr, "gisaxs --formfactor-only: %s, %zu q points, %.3f s -> %s\n", shape->describe().c_str(),
                 grid.size(), seconds, o.output.c_str());
}

}  // namespace nanoscatter::cli
