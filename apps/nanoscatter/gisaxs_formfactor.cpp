#include "gisaxs_formfactor.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "nanoscatter/gisaxs_output.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter::cli {

namespace {

// "min,max,n": n points from min to max (n = 1: min alone). The grid's
// checks (points ≥ 1, finite values) are the library's (validate_qgrid).
std::vector<double> parse_axis(const std::string& text, const char* field) {
  if (text.empty()) fail_option(field, "required with --formfactor-only: give min,max,n (nm⁻¹, points)");
  std::vector<double> v;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    try {
      std::size_t used = 0;
      v.push_back(std::stod(part, &used));
      if (part.find_first_not_of(" \t", used) != std::string::npos) throw std::invalid_argument(part);
    } catch (const std::exception&) {
      fail_option(field, "'", part, "' is not a number (give min,max,n)");
    }
  }
  if (v.size() != 3) fail_option(field, "give min,max,n (three numbers), got '", text, "'");
  constexpr std::int64_t kMaxPoints = 1000000000;  // far beyond any memory
  const auto points = whole_number(v[2], 0, kMaxPoints);
  if (!points) fail_option(field, "the number of points must be a whole number, got ", v[2]);
  const auto n = static_cast<std::size_t>(*points);
  if (n > 1 && !(v[1] > v[0])) fail_option(field, "max must exceed min");
  std::vector<double> axis(n);
  for (std::size_t i = 0; i < n; ++i) axis[i] = n == 1 ? v[0] : v[0] + (v[1] - v[0]) * double(i) / double(n - 1);
  return axis;
}

}  // namespace

void run_gisaxs_formfactor(const GisaxsFormFactorCli& o, const DeviceOptions& compute, bool quiet,
                           const RunContext& context) {
  // Options first: bad input costs no work and leaves no file.
  gisaxs::QGrid3D grid;
  grid.qx = parse_axis(o.qx, "qx");
  grid.qy = parse_axis(o.qy, "qy");
  grid.qz = parse_axis(o.qz, "qz");
  gisaxs::validate_qgrid(grid);
  gisaxs::checked_formfactor_output(o.output, "output");

  const gisaxs::Sample sample = gisaxs::read_sample(o.sample);
  gisaxs::MeshFormFactorOptions options;
  options.compute = compute;
  // Under mpirun each rank computes a contiguous slab of qx planes; reduce
  // gathers the slabs in rank order (the same numbers as one process).
  const parallel::Communicator& comm = context.comm;
  gisaxs::FormFactorVolume volume = gisaxs::formfactor_volume(sample, grid, options, comm.share());
  parallel::report_load(comm, "gisaxs --formfactor-only", volume.seconds,
                        double(volume.planes * grid.qy.size() * grid.qz.size()), quiet, compute.device);
  volume.reduce(comm);
  if (!comm.root()) return;
  const RunRecord record{"gisaxs", context.command_line, gisaxs::formfactor_run_lines(sample, volume, compute)};
  gisaxs::write_formfactor(o.output, volume, record);
  if (!quiet)
    std::fprintf(stderr, "gisaxs --formfactor-only: %s, %zu q points, %.3f s -> %s\n", volume.shape.c_str(),
                 grid.size(), volume.seconds, o.output.c_str());
}

}  // namespace nanoscatter::cli
