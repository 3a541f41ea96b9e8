#include <sstream>

#include "gisaxs/formfactors/checks.hpp"
#include "gisaxs/formfactors/shapes.hpp"

namespace nanoscatter::gisaxs {

namespace detail {

std::string describe_shape(const char* name,
                           std::initializer_list<std::pair<const char*, double>> lengths,
                           std::initializer_list<std::pair<const char*, double>> angles) {
  std::ostringstream os;
  os << name << "(";
  bool first = true;
  for (const auto& [key, value] : lengths) {
    os << (first ? "" : ", ") << key << "=" << value << " nm";
    first = false;
  }
  for (const auto& [key, value] : angles) {
    os << (first ? "" : ", ") << key << "=" << degrees(value) << "°";
    first = false;
  }
  os << ")";
  return os.str();
}

}  // namespace detail

const std::vector<ShapeInfo>& shape_catalogue() {
  static const std::vector<ShapeInfo> shapes = {
      detail::sphere_shape(),      detail::truncated_sphere_shape(), detail::spheroid_shape(),
      detail::cylinder_shape(),    detail::box_shape(),              detail::prism3_shape(),
      detail::prism6_shape(),      detail::pyramid_shape(),          detail::cone_shape(),
      detail::tetrahedron_shape(), detail::icosahedron_shape(),      detail::core_shell_sphere_shape(),
  };
  return shapes;
}

const ShapeInfo* find_shape(std::string_view name) {
  for (const ShapeInfo& s : shape_catalogue())
    if (s.name == name) return &s;
  return nullptr;
}

std::string shape_names() {
  std::string names;
  for (const ShapeInfo& s : shape_catalogue()) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

}  // namespace nanoscatter::gisaxs
