// Crystallographic symmetry operations x' = R x + t on fractional coordinates,
// parsed from the CIF "xyz" notation ('1/2+x,-y,z-1/4', 'x-y,x,z+1/2'), and
// the expansion of a site into its orbit inside the unit cell.
#pragma once
#include <string>
#include <vector>

#include "nanoscatter/vec3.hpp"

namespace nanoscatter {

struct SymmetryOp {
  Mat3 rotation;     // integer entries for any crystallographic operation
  Vec3 translation;  // fractional
  Vec3 apply(const Vec3& fractional) const { return rotation * fractional + translation; }
};

// Parses three comma-separated affine expressions in x, y, z (case-insensitive)
// with rational or decimal constants. Throws Error (no location) on bad syntax.
SymmetryOp parse_symmetry_op(const std::string& text);

// Each component reduced into [0, 1).
Vec3 wrap_fractional(const Vec3& fractional);

// Largest |Δ − round(Δ)| over the three components: the distance of two
// fractional positions in the max-norm, with the periodic wrap.
double periodic_distance(const Vec3& f1, const Vec3& f2);

// The images of `site` under every operation, wrapped into [0, 1), with
// images closer than `merge_tolerance` (fractional, periodic max-norm) to an
// earlier one dropped. Order: the order of `ops`, first image kept.
std::vector<Vec3> site_orbit(const Vec3& site, const std::vector<SymmetryOp>& ops,
                             double merge_tolerance);

}  // namespace nanoscatter
