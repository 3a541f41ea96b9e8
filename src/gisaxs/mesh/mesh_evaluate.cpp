#include "gisaxs/mesh/mesh_evaluate.hpp"

namespace nanoscatter::gisaxs {

void evaluate_mesh(const MeshFormFactor& mesh, const MeshFormFactorOptions& options, std::span<const CVec3> q,
                   std::vector<Complex>& out) {
  out.assign(q.size(), Complex(0));
  std::vector<Vec3> real_q;
  std::vector<std::size_t> real_index;
  std::vector<CVec3> complex_q;
  std::vector<std::size_t> complex_index;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q[i].x.imag() == 0 && q[i].y.imag() == 0 && q[i].z.imag() == 0) {
      real_q.push_back({q[i].x.real(), q[i].y.real(), q[i].z.real()});
      real_index.push_back(i);
    } else {
      complex_q.push_back(q[i]);
      complex_index.push_back(i);
    }
  }
  if (!real_q.empty()) {
    const MeshFormFactorPlan plan(mesh, options);
    std::vector<Complex> f(real_q.size());
    plan.execute(real_q, f);
    for (std::size_t j = 0; j < f.size(); ++j) out[real_index[j]] = f[j];
  }
  if (!complex_q.empty()) {
    std::vector<Complex> f(complex_q.size());
    mesh.evaluate_reference(complex_q, f);
    for (std::size_t j = 0; j < f.size(); ++j) out[complex_index[j]] = f[j];
  }
}

}  // namespace nanoscatter::gisaxs
