// Form-factor volumes: F on a 3D q grid for `nanoscatter gisaxs
// --formfactor-only` (HipGISAXS's problem), a slab of qx planes per part of
// a work share, and their HDF5 file.
#include <omp.h>

#include <algorithm>
#include <sstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_output.hpp"
#include "nanoscatter/io_nexus.hpp"
#include "nanoscatter/stopwatch.hpp"

namespace nanoscatter::gisaxs {

namespace {

// The first particle's shape in its own frame (placed as in the file).
std::shared_ptr<const FormFactor> first_shape(const Sample& sample) {
  const ParticleSpec& p = sample.layouts.at(0).particles.at(0);
  if (p.mesh) return p.mesh;
  return find_shape(p.shape)->build(p.parameters).front().form_factor;
}

std::vector<Complex> on_grid(const FormFactor& shape, const QGrid3D& grid, const MeshFormFactorOptions& options,
                             MeshRunStats& stats) {
  std::vector<Complex> f(grid.size());
  if (const auto* mesh = dynamic_cast<const MeshFormFactor*>(&shape)) {
    const MeshFormFactorPlan plan(*mesh, options);
    plan.execute(grid, f);
    stats = plan.last_stats();
    return f;
  }
  // Analytic shapes (on the CPU whatever the device): rows of q_z, OpenMP
  // over (q_x, q_y).
  const std::size_t nx = grid.qx.size(), ny = grid.qy.size(), nz = grid.qz.size();
  const int threads = options.compute.threads > 0 ? options.compute.threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads)
  {
    std::vector<CVec3> q(nz);
#pragma omp for schedule(dynamic)
    for (std::size_t xy = 0; xy < nx * ny; ++xy) {
      for (std::size_t k = 0; k < nz; ++k) q[k] = CVec3(Vec3{grid.qx[xy / ny], grid.qy[xy % ny], grid.qz[k]});
      shape.evaluate(q, std::span<Complex>(f).subspan(xy * nz, nz));
    }
  }
  return f;
}

}  // namespace

FormFactorVolume formfactor_volume(const Sample& sample, const QGrid3D& grid, const MeshFormFactorOptions& options,
                                   const WorkShare& share) {
  validate_qgrid(grid);
  options.validate();
  validate_work_share(share);
  if (!sample.validated) validate_sample(sample);
  const std::shared_ptr<const FormFactor> shape = first_shape(sample);
  FormFactorVolume v;
  v.grid = grid;
  v.shape = shape->describe();
  // A contiguous slab of qx planes: the array is [nx][ny][nz], so a slab is
  // one contiguous run and the parts concatenate in rank order.
  const auto [x0, x1] = share.range(grid.qx.size());
  v.first_plane = x0;
  v.planes = x1 - x0;
  const Stopwatch start;
  if (v.planes > 0) {
    QGrid3D slab = grid;
    slab.qx.assign(grid.qx.begin() + std::ptrdiff_t(x0), grid.qx.begin() + std::ptrdiff_t(x1));
    v.values = on_grid(*shape, slab, options, v.stats);
  }
  v.seconds = start.seconds();
  return v;
}

void FormFactorVolume::reduce(const parallel::Communicator& comm) {
  if (!comm.distributed()) return;
  parallel::ByteWriter mine;
  mine.put_vector(values);
  const auto parts = comm.gather(mine.bytes());
  if (comm.root()) {
    values.clear();
    values.reserve(grid.size());
    for (const auto& part : parts) {
      parallel::ByteReader reader(part);
      const auto piece = reader.get_vector<Complex>();
      values.insert(values.end(), piece.begin(), piece.end());
    }
  } else {
    values.assign(grid.size(), Complex(0));
  }
  // std::complex<double> is laid out as two doubles (the standard's
  // array-oriented access), so the whole grid goes out as 2·size doubles.
  comm.broadcast(std::span<double>(reinterpret_cast<double*>(values.data()), 2 * values.size()));
  first_plane = 0;
  planes = grid.qx.size();
}

OutputFormat checked_formfactor_output(const std::string& path, const std::string& option) {
  return checked_output_path(path, option, {OutputFormat::hdf5}, "gisaxs --formfactor-only");
}

std::vector<std::string> formfactor_run_lines(const Sample& sample, const FormFactorVolume& v,
                                              const DeviceOptions& compute) {
  std::ostringstream os;
  os << "grid " << v.grid.qx.size() << " x " << v.grid.qy.size() << " x " << v.grid.qz.size() << ", device "
     << to_string(compute.device) << ", precision " << to_string(compute.resolved_precision()) << ", hyperblocks "
     << v.stats.hyperblocks << ", time " << v.seconds << " s";
  return {"sample: " + sample.source, os.str()};
}

void write_formfactor(const std::string& path, const FormFactorVolume& v, const RunRecord& record) {
  checked_formfactor_output(path, "output");
  if (v.values.size() != v.grid.size())
    fail("write_formfactor: the volume holds ", v.values.size(), " of ", v.grid.size(),
         " values (reduce the parts first)");
  const QGrid3D& grid = v.grid;
  const std::vector<std::string> header =
      record.header_lines("nanoscatter gisaxs --formfactor-only: F(q) of layout[0].particle[0]");
  nexus::Writer nx(path, record, header);
  nx.field("data/formfactor", v.values.data(), {grid.qx.size(), grid.qy.size(), grid.qz.size()},
           {"nm^3", "F(q) (nm^3)"});
  const std::string ff = nexus::Writer::in_entry("data/formfactor");
  nx.h5().set_attribute(ff, "definition", "F(q) = integral of exp(i q.r) over the particle volume");
  nx.h5().set_attribute(ff, "layout", "[i][j][k] = F(qx[i], qy[j], qz[k]), row-major, complex128 {r, i}");
  nx.h5().set_attribute(ff, "shape", v.shape);
  for (const auto& [name, axis] : {std::pair{"qx", &grid.qx}, std::pair{"qy", &grid.qy}, std::pair{"qz", &grid.qz}}) {
    nx.field(std::string("data/") + name, axis->data(), {axis->size()}, {"1/nm", std::string(name) + " (1/nm)"});
    nx.alias(std::string("/") + name, std::string("data/") + name);
  }
  nx.data_group({.name = "data",
                 .signal = "formfactor",
                 .axes = {"qx", "qy", "qz"},
                 .orientation = "first index: qx; each image: row index qy, column index qz, both increasing",
                 .interpretation = "image"});
  nx.alias("/formfactor", "data/formfactor");
  nx.commit();
}

}  // namespace nanoscatter::gisaxs
