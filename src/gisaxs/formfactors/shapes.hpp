// Helpers for the shape files and the catalogue that lists them.
#pragma once
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nanoscatter/gisaxs_formfactors.hpp"

namespace nanoscatter::gisaxs::detail {

// "cylinder(radius=5 nm, height=5 nm)"; angles are given in radians and shown in degrees.
std::string describe_shape(const char* name,
                           std::initializer_list<std::pair<const char*, double>> lengths,
                           std::initializer_list<std::pair<const char*, double>> angles = {});

inline std::vector<ShapeComponent> single_body(std::unique_ptr<FormFactor> f) {
  std::vector<ShapeComponent> c;
  c.push_back({std::shared_ptr<const FormFactor>(std::move(f)), ComponentRole::body, Vec3{}});
  return c;
}

// One per shape file.
ShapeInfo sphere_shape();
ShapeInfo truncated_sphere_shape();
ShapeInfo spheroid_shape();
ShapeInfo cylinder_shape();
ShapeInfo box_shape();
ShapeInfo prism3_shape();
ShapeInfo prism6_shape();
ShapeInfo pyramid_shape();
ShapeInfo cone_shape();
ShapeInfo tetrahedron_shape();
ShapeInfo icosahedron_shape();
ShapeInfo core_shell_sphere_shape();

}  // namespace nanoscatter::gisaxs::detail
