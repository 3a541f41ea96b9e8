// Core–shell sphere: a sphere of radius R_c + t (the shell material) with a
// concentric core of radius R_c (the core material). As a particle its
// amplitude is (π/λ²)[(n_shell² − n_host²) F_sphere(R_c + t)
//   + (n_core² − n_shell²) F_sphere(R_c) exp(i q_z t)], the core contrast being
// taken against the shell (BornAgain's ParticleCoreShell); the two
// components are returned here and combined by the particle.
#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"

namespace nanoscatter::gisaxs {

namespace detail {
ShapeInfo core_shell_sphere_shape() {
  return {"core_shell_sphere", "sphere of core_radius (core_material) inside a shell of shell_thickness (material)",
          {{"core_radius", ParameterKind::length}, {"shell_thickness", ParameterKind::length}},
          true,
          [](std::span<const double> p) {
            require_length(p[0], "core_radius");
            require_length(p[1], "shell_thickness");
            std::vector<ShapeComponent> c;
            c.push_back({std::shared_ptr<const FormFactor>(make_sphere(p[0] + p[1])), ComponentRole::body, Vec3{}});
            c.push_back({std::shared_ptr<const FormFactor>(make_sphere(p[0])), ComponentRole::core, Vec3{0, 0, p[1]}});
            return c;
          }};
}
}  // namespace detail

}  // namespace nanoscatter::gisaxs
