// The Fourier transform of a planar convex polygon, shared by the polyhedron
// (one per face) and the prism (its base). Formulas: J. Wuttke, "Form factor
// (Fourier shape transform) of polygon and polyhedron", J. Appl. Cryst. 54
// (2021) 580 (arXiv:1703.00255), in the variant described below.
//
// Φ(q) = ∫_face exp(i q·(r − c)) d²r, c the vertex centroid. With q∥ the part
// of q in the face plane and the 2D divergence theorem applied to the field
// w exp(i q∥·σ), w = conj(q∥) (any w with q∥·w ≠ 0 works; this one never
// vanishes for complex q ≠ 0):
//   Φ = (−i/|q∥|²) Σ_edges 2 (n̂ × conj(q∥))·E_e sinc(q·E_e) exp(i q·(R_e − c)),
// E_e the half edge, R_e its midpoint. The edge sum cancels to O(|q∥|² ρ²)
// (Σ_e (n̂×w)·E_e = 0 exactly), so below |q∥|ρ < kSeriesLimit the power series
//   Φ = Σ_k i^k m_k,  m_k = (1/k!) ∫ (q·σ)^k d²σ,
// is summed instead, with the moments from Euler's theorem for homogeneous
// functions (no division by q at all):
//   m_k = 1/(k+2) Σ_e h_e · 2|E_e| · C_k(q·E_e, q·(R_e − o)),
//   C_k(u, v) = Σ_l u^{2l} v^{k−2l} / ((2l+1)! (k−2l)!)  [= (1/2)∫_{−1}^{1} (v+tu)^k/k! dt],
// h_e the signed distance from the expansion origin o to the edge's line.
#pragma once
#include <vector>

#include "nanoscatter/gisaxs_formfactors.hpp"

namespace nanoscatter::gisaxs::detail {

struct PlanarPolygon {
  Vec3 normal;    // unit, the side from which the vertices run counter-clockwise
  Vec3 centroid;  // vertex average (in the caller's frame)
  double area = 0;
  double radius = 0;  // max |vertex − centroid|
  std::vector<Polyhedron::Edge> edges;  // midpoints in the caller's frame
};

// Builds the polygon from its vertices (counter-clockwise about the normal,
// which is computed by Newell's method). Zero-length edges are dropped and
// vertices between collinear edges merged. Throws Error (field `what`) when
// the polygon is degenerate, not planar or not convex.
PlanarPolygon make_planar_polygon(const std::vector<Vec3>& vertices, const char* what);

// Φ(q) about the centroid, as described above.
Complex polygon_transform(const PlanarPolygon& p, const CVec3& q);

// m_k = (1/k!) ∫_face (q∥·(r − origin))^k d²r for k = 0..n_max (n_max ≤ 64),
// the origin a point of the face plane and q∥ in the plane.
void polygon_moments(const PlanarPolygon& p, const CVec3& q, const Vec3& origin, int n_max,
                     Complex* moments);

// The number of series terms after which x^n/n! < 1e-18 (x = |q| × radius).
int series_order(double x);

// Series below this |q∥| × radius (the direct sum loses ≈ log10(1/x) digits).
inline constexpr double kPolygonSeriesLimit = 0.2;

}  // namespace nanoscatter::gisaxs::detail
