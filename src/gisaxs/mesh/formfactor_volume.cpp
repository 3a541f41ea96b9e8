// Form-factor volumes: F on a 3D q grid for `nanoscatter gisaxs
// --formfactor-only` (HipGISAXS's problem), and their HDF5 file.
#include <omp.h>

#include <algorithm>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "nanoscatter/io_hdf5.hpp"

namespace nanoscatter::gisaxs {

std::vector<Complex> formfactor_on_grid(const FormFactor& shape, const QGrid3D& grid,
                                        const MeshFormFactorOptions& options, MeshRunStats* stats) {
  validate_qgrid(grid);
  std::vector<Complex> f(grid.size());
  if (const auto* mesh = dynamic_cast<const MeshFormFactor*>(&shape)) {
    const MeshFormFactorPlan plan(*mesh, options);
    plan.execute(grid, f);
    if (stats) *stats = plan.last_stats();
    return f;
  }
  // Analytic shapes (on the CPU whatever the device): rows of q_z, OpenMP
  // over (q_x, q_y).
  const std::size_t nx = grid.qx.size(), ny = grid.qy.size(), nz = grid.qz.size();
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
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

void write_formfactor_hdf5(const std::filesystem::path& path, const QGrid3D& grid, const std::vector<Complex>& f,
                           const std::string& shape, const std::vector<std::string>& header_lines) {
  H5Writer h5(path);
  h5.write("/formfactor", f.data(), {grid.qx.size(), grid.qy.size(), grid.qz.size()});
  h5.set_attribute("/formfactor", "units", "nm^3");
  h5.set_attribute("/formfactor", "definition", "F(q) = integral of exp(i q.r) over the particle volume");
  h5.set_attribute("/formfactor", "layout", "[i][j][k] = F(qx[i], qy[j], qz[k]), row-major, complex128 {r, i}");
  h5.set_attribute("/formfactor", "shape", shape);
  for (const auto& [name, axis] : {std::pair{"/qx", &grid.qx}, std::pair{"/qy", &grid.qy}, std::pair{"/qz", &grid.qz}}) {
    h5.write(name, axis->data(), {axis->size()});
    h5.set_attribute(name, "units", "1/nm");
  }
  for (std::size_t i = 0; i < header_lines.size(); ++i)
    h5.set_attribute("/", "header_" + std::to_string(i), header_lines[i]);
  h5.commit();
}

}  // namespace nanoscatter::gisaxs
