// Particles given as closed triangulated surfaces (STL or OBJ files), and
// their form factor F(q) = ∫ exp(i q·r) d³r (nm³) for the gisaxs engine.
//
// Three paths compute the same F (docs/gisaxs.md, "Meshes"):
//  * the float64 reference, MeshFormFactor::evaluate_reference: part 1's
//    polyhedron mathematics (divergence theorem faces → edges, power series
//    near q → 0 and for q ⟂ face or edge), valid for complex q;
//  * the fast CPU path (OpenMP + SIMD, float32 or float64) and
//  * the CUDA path (triangle·q kernels, hyperblocks within a memory cap),
// both through MeshFormFactorPlan, for real q: vertex phases exp(i q·v)
// computed once per vertex and q and shared by the triangles that meet
// there, triangle integrals as stable divided differences of exp.
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/gisaxs_formfactors.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/vec3.hpp"
#include "nanoscatter/work_share.hpp"

namespace nanoscatter::gisaxs {

// A triangulated surface: vertices (nm) and triangles as vertex indices,
// counter-clockwise seen from outside. `source` names the file in messages.
struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  std::string source;
};

// Reads STL (ASCII or binary; docs/gisaxs.md "STL files") or OBJ (strict:
// `v` and `f`; planar convex polygons split into fans from their first
// corner; the vertices that faces use, in file order; docs/gisaxs.md
// "OBJ files"), triangles in file order; vertices with bit-identical
// coordinates are welded. No triangle is dropped, degenerate or not.
// Coordinates are taken as they are (scale them with place_mesh). Throws
// Error naming the file (and the line and statement, or the binary facet) when it cannot
// be read or holds no triangles; does not validate (validate_mesh does).
TriangleMesh read_mesh(const std::filesystem::path& path);

// Checks that the mesh bounds a solid: finite coordinates, no triangle of
// zero area, every edge shared by exactly two triangles that run along it in
// opposite directions (closed, manifold, consistently oriented) and a
// positive enclosed volume (outward orientation). Errors name the file and
// the triangle (index from 0 in file order).
void validate_mesh(const TriangleMesh& mesh);

// Placement of a mesh in the particle frame: coordinates × scale, then
// (origin = bottom_centre) shifted so that the centre of the bounding box's
// bottom face sits at the origin (the particle reference point of every
// analytic shape), then shifted by `offset`.
enum class MeshOrigin { bottom_centre, file };
struct MeshPlacement {
  double scale = 1;  // nm per file unit
  MeshOrigin origin = MeshOrigin::bottom_centre;
  Vec3 offset;       // nm
};
TriangleMesh place_mesh(const TriangleMesh& mesh, const MeshPlacement& placement);

// Enclosed volume (nm³, positive for outward orientation).
double mesh_volume(const TriangleMesh& mesh);

// ---- form factor ------------------------------------------------------------

class MeshFormFactorPlan;

struct MeshFormFactorOptions {
  // device gpu: the CUDA path, within max_device_memory (0: half of the
  // free memory); precision single: float32 kernels with float64 sums;
  // threads: the CPU path's and the host loops'.
  DeviceOptions compute;

  // The checks (MeshFormFactorPlan calls it): compute.validate().
  void validate() const;
};

// Statistics of the last execute of a plan (for tests, benches, the CLI).
struct MeshRunStats {
  std::size_t hyperblocks = 0;       // q blocks × triangle blocks launched on the GPU
  std::size_t q_per_hyperblock = 0;
  std::size_t triangles_per_hyperblock = 0;
  std::size_t device_bytes = 0;      // device memory held at the peak
  std::size_t reference_points = 0;  // q sent to the float64 reference (q ≈ 0, complex q)
  std::size_t double_points = 0;     // single precision: small q sent to the float64 kernel
  int threads_per_block = 0;         // the autotuned launch shape (GPU)
  int threads_per_q = 0;             // threads sharing one q's tile work (GPU, autotuned: 1, 2 or 4)
  int q_per_thread = 0;              // q interleaved in one thread (GPU, autotuned: 1 or 2)
  bool blend_kernel = false;         // the autotuner chose the branch-free triangle kernel
  // GPU time of the mesh kernels (CUDA events around each q block's
  // launches; where the two streams' kernels overlap, the time is counted
  // once). Against the wall time of execute() it tells kernel-bound runs
  // from host- or transfer-bound ones.
  double kernel_seconds = 0;
};

// A validated mesh as a FormFactor; evaluate() is the fast float64 CPU path
// for real q (serial, SIMD) and the reference for complex q.
class MeshFormFactor final : public FormFactor {
 public:
  explicit MeshFormFactor(TriangleMesh mesh);  // validates
  ~MeshFormFactor() override;
  void evaluate(std::span<const CVec3> q, std::span<Complex> out) const override;
  using FormFactor::evaluate;
  // The float64 reference: the polyhedron face sums of part 1 (any q).
  void evaluate_reference(std::span<const CVec3> q, std::span<Complex> out) const;
  double volume() const override;
  Extent extent() const override;
  std::string describe() const override;
  const TriangleMesh& mesh() const;

  struct Impl;

 private:
  friend class MeshFormFactorPlan;  // shares the tiles and the reference
  std::shared_ptr<const Impl> impl_;
};

// A regular 3D grid of q points, axes given by their values (nm⁻¹), any sizes
// ≥ 1; point (i, j, k) is (qx[i], qy[j], qz[k]), stored at (i·ny + j)·nz + k.
struct QGrid3D {
  std::vector<double> qx, qy, qz;
  std::size_t size() const { return qx.size() * qy.size() * qz.size(); }
};
// Checks a grid: every axis non-empty and finite (errors name the axis as
// an option field, "qx": the CLI's --qx).
void validate_qgrid(const QGrid3D& grid);

// Plan-style API over the CPU and CUDA paths for many q at once.
class MeshFormFactorPlan {
 public:
  MeshFormFactorPlan(const TriangleMesh& mesh, MeshFormFactorOptions options);  // validates
  MeshFormFactorPlan(const MeshFormFactor& form_factor, MeshFormFactorOptions options);
  ~MeshFormFactorPlan();
  MeshFormFactorPlan(MeshFormFactorPlan&&) noexcept;
  MeshFormFactorPlan& operator=(MeshFormFactorPlan&&) noexcept;

  // out[i] = F(q[i]).
  void execute(std::span<const Vec3> q, std::span<Complex> out) const;
  // out[(i·ny + j)·nz + k] = F(qx[i], qy[j], qz[k]); q never stored.
  void execute(const QGrid3D& grid, std::span<Complex> out) const;
  const MeshRunStats& last_stats() const;
  std::size_t triangle_count() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// ---- form-factor volumes (nanoscatter gisaxs --formfactor-only) ----------
struct Sample;

// F of a shape on a QGrid3D, or this process's part of it.
struct FormFactorVolume {
  QGrid3D grid;                 // the whole grid
  std::string shape;            // FormFactor::describe() of the shape
  // values hold the qx planes [first_plane, first_plane + planes) in the
  // grid's storage order: [plane][ny][nz], complex nm³ (all planes after
  // reduce, or on one process).
  std::size_t first_plane = 0, planes = 0;
  std::vector<Complex> values;
  MeshRunStats stats;           // the mesh plan's (this part's), or zeros
  double seconds = 0;           // wall time of this part

  // The whole grid on every rank: the parts are contiguous slabs of qx
  // planes, gathered in rank order (each value computed by one rank: the
  // single process's numbers). A no-op on one rank.
  void reduce(const parallel::Communicator& comm);
};

// F of the sample's first particle (layout[0].particle[0], placed as in the
// sample file, no rotation or depth) on `grid` — a mesh through
// MeshFormFactorPlan (CPU or GPU), analytic shapes and polyhedra through
// FormFactor::evaluate on the CPU — or, with a work share, on the share's
// contiguous run of qx planes (WorkShare::range). Checks the sample unless
// sample.validated, the grid and the options.
FormFactorVolume formfactor_volume(const Sample& sample, const QGrid3D& grid, const MeshFormFactorOptions& options,
                                   const WorkShare& share = {});

// ---- test and benchmark meshes ---------------------------------------------
// Closed outward meshes of known solids (nm), reference point at the origin
// of the construction (callers place them).
// Box [−a/2, a/2] × [−b/2, b/2] × [0, c], 12 triangles.
TriangleMesh box_mesh(double a, double b, double c);
// Convex polyhedron → triangles (fan per face), from Polyhedron-style input.
TriangleMesh mesh_from_faces(const std::vector<Vec3>& vertices, const std::vector<std::vector<int>>& faces,
                             std::string source);
// Sphere of radius r centred at (0, 0, r): an icosahedron refined `levels`
// times (each level splits every triangle in four; 20·4^levels triangles),
// vertices on the sphere; `stretch` scales z (an ellipsoid for ≠ 1).
TriangleMesh sphere_mesh(double radius, int levels, double stretch = 1);
// The same with exactly `triangles` triangles (an even number ≥ 20; closed
// meshes have even counts): the finest icosphere not above the count, with
// evenly spread triangles split at their centroid (lifted to the surface)
// until the count is reached. For benchmarks of given mesh sizes.
TriangleMesh sphere_mesh_with_triangles(double radius, std::size_t triangles, double stretch = 1);
// Cylinder of radius r and height h on z = 0, `segments` around, the caps
// fanned from their centres (4·segments triangles).
TriangleMesh cylinder_mesh(double radius, double height, int segments);
// Writes a binary STL (float32 coordinates) / ASCII STL.
void write_stl_binary(const std::filesystem::path& path, const TriangleMesh& mesh);
void write_stl_ascii(const std::filesystem::path& path, const TriangleMesh& mesh);

}  // namespace nanoscatter::gisaxs
