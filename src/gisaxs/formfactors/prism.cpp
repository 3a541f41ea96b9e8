// A polygon extruded along z: the transform factorises into the polygon's 2D
// transform (polygon.hpp, with its series near q∥ = 0) and the height's sinc.
#include <algorithm>
#include <cmath>

#include "gisaxs/formfactors/polygon.hpp"
#include "gisaxs/special_functions.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_formfactors.hpp"

namespace nanoscatter::gisaxs {

Prism::~Prism() = default;

Prism::Prism(const std::vector<Vec3>& base, double height, std::string name)
    : height_(height), name_(std::move(name)) {
  const char* what = name_.c_str();
  if (!(height > 0) || !std::isfinite(height))
    fail_at({"", 0, what}, "prism height must be positive and finite, got ", height);
  std::vector<Vec3> flat;
  for (const Vec3& v : base) {
    if (!is_finite(v)) fail_at({"", 0, what}, "base vertex coordinates must be finite");
    flat.push_back({v.x, v.y, 0.0});
  }
  base_ = std::make_unique<detail::PlanarPolygon>(detail::make_planar_polygon(flat, what));
  if (base_->normal.z < 0)
    fail_at({"", 0, what}, "base vertices must run counter-clockwise seen from +z");
  base_->normal = {0, 0, 1};  // exact, so that q_z drops out of the base transform
  volume_ = base_->area * height_;
  Vec3 lo = flat[0], hi = flat[0];
  for (const Vec3& v : flat)
    for (int i = 0; i < 2; ++i) {
      lo[i] = std::min(lo[i], v[i]);
      hi[i] = std::max(hi[i], v[i]);
    }
  lo.z = 0;
  hi.z = height_;
  extent_ = {lo, hi};
}

void Prism::evaluate(std::span<const CVec3> q, std::span<Complex> out) const {
  for (std::size_t i = 0; i < q.size(); ++i) {
    const CVec3& k = q[i];
    const Complex half = 0.5 * k.z * height_;
    out[i] = exp_i(k.x * base_->centroid.x + k.y * base_->centroid.y) *
             detail::polygon_transform(*base_, k) * height_ * sinc_exp_i(half);
  }
}

}  // namespace nanoscatter::gisaxs
