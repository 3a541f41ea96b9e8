#include "gisaxs/particle_components.hpp"

#include "nanoscatter/error.hpp"

namespace nanoscatter::gisaxs {

std::vector<ShapeComponent> particle_components(const ParticleSpec& p, std::span<const double> parameters) {
  if (p.shape == "mesh") {
    if (!p.mesh) fail_at({"", 0, "file"}, "a mesh particle needs its mesh file");
    return {{p.mesh, ComponentRole::body, Vec3{}}};
  }
  const ShapeInfo* shape = find_shape(p.shape);
  if (!shape) fail_at({"", 0, "shape"}, "unknown shape '", p.shape, "' (", shape_names(), ", mesh)");
  return shape->build(parameters);
}

}  // namespace nanoscatter::gisaxs
