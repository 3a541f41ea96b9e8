// The transform of a closed surface made of planar convex faces, shared by
// the polyhedron (its faces) and the triangle mesh (its triangles): the
// float64 mathematics of polyhedron.cpp (J. Wuttke, J. Appl. Cryst. 54
// (2021) 580) in one place. The faces must close a solid and face outwards;
// callers check that.
#pragma once
#include <vector>

#include "gisaxs/formfactors/polygon.hpp"

namespace nanoscatter::gisaxs::detail {

struct FaceSet {
  std::vector<PlanarPolygon> faces;  // coordinates relative to centre
  Vec3 centre;                       // expansion origin (bounding-box centre)
  double radius = 0;                 // max |vertex − centre|
};

// F(q) = ∫_V exp(i q·r) d³r for any complex q (polyhedron.cpp describes the
// face sum and the series below |q|·radius < kVolumeSeriesLimit).
Complex face_set_transform(const FaceSet& s, const CVec3& q);

// Σ_faces (n̂·c_f) A_f / 3: the enclosed volume.
double face_set_volume(const FaceSet& s);

}  // namespace nanoscatter::gisaxs::detail
