// MeshFormFactorPlan and MeshFormFactor: routing of q points between the
// float64 reference (complex q, and |q|·R < kReferenceLimit where the face
// sums of the fast kernel cancel: relative error ≈ ε · S/(|q| V), about
// 3ε/(|q| R) for a sphere-like body), the float64 fast kernel, and — in
// single precision — the float32 kernel from kSingleLimit up, below which
// that cancellation would cost float32 more than ~1e-6. The CPU or CUDA
// backend runs the fast kernels (mesh_backends.hpp).
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "gisaxs/formfactors/face_set.hpp"
#include "gisaxs/mesh/mesh_backends.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs {

namespace {

constexpr double kReferenceLimit = 1e-3;  // |q|·R below which the reference series runs
constexpr double kSingleLimit = 2.0;      // |q|·R below which float32 hands over to float64
// Grid points expanded to q vectors per backend call (24 B each).
constexpr std::size_t kGridChunk = std::size_t(1) << 23;

bool is_real(const CVec3& q) { return q.x.imag() == 0 && q.y.imag() == 0 && q.z.imag() == 0; }

}  // namespace

struct MeshFormFactor::Impl {
  TriangleMesh mesh;
  mesh::MeshTiles tiles;
  detail::FaceSet faces;  // the reference: one planar polygon per triangle
  Extent extent;

  explicit Impl(TriangleMesh m) : mesh(std::move(m)) {
    validate_mesh(mesh);
    tiles = mesh::make_mesh_tiles(mesh);
    faces.centre = tiles.centre;
    faces.radius = tiles.radius;
    faces.faces.reserve(mesh.triangles.size());
    for (const auto& t : mesh.triangles)
      faces.faces.push_back(detail::make_planar_polygon(
          {mesh.vertices[t[0]] - tiles.centre, mesh.vertices[t[1]] - tiles.centre, mesh.vertices[t[2]] - tiles.centre},
          mesh.source.c_str()));
    Vec3 lo = mesh.vertices[0], hi = lo;
    for (const Vec3& v : mesh.vertices)
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], v[k]);
        hi[k] = std::max(hi[k], v[k]);
      }
    extent = {lo, hi};
  }
  double reference_q() const { return kReferenceLimit / tiles.radius; }
};

// ---- MeshFormFactor --------------------------------------------------------

MeshFormFactor::MeshFormFactor(TriangleMesh mesh) : impl_(std::make_shared<const Impl>(std::move(mesh))) {}
MeshFormFactor::~MeshFormFactor() = default;
double MeshFormFactor::volume() const { return impl_->tiles.volume; }
Extent MeshFormFactor::extent() const { return impl_->extent; }
const TriangleMesh& MeshFormFactor::mesh() const { return impl_->mesh; }
std::string MeshFormFactor::describe() const {
  return "mesh(" + impl_->mesh.source + ", " + std::to_string(impl_->mesh.triangles.size()) + " triangles)";
}

void MeshFormFactor::evaluate_reference(std::span<const CVec3> q, std::span<Complex> out) const {
  for (std::size_t i = 0; i < q.size(); ++i) out[i] = detail::face_set_transform(impl_->faces, q[i]);
}

void MeshFormFactor::evaluate(std::span<const CVec3> q, std::span<Complex> out) const {
  // Called per block of pixels from the DWBA's threads: serial here.
  const double q_min = impl_->reference_q();
  std::vector<Vec3> real_q(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) {
    const bool fast = is_real(q[i]) && magnitude(q[i]) >= q_min;
    real_q[i] = fast ? Vec3{q[i].x.real(), q[i].y.real(), q[i].z.real()} : Vec3{};
    if (!fast) out[i] = detail::face_set_transform(impl_->faces, q[i]);
  }
  mesh::form_factor_cpu(impl_->tiles, real_q, out, Precision::float64, 1, q_min);
}

// ---- MeshFormFactorPlan ----------------------------------------------------

struct MeshFormFactorPlan::Impl {
  MeshFormFactorOptions options;
  std::shared_ptr<const MeshFormFactor::Impl> data;
  mutable MeshRunStats stats;
#if NANOSCATTER_HAVE_CUDA
  mutable mesh::MeshCudaStatePtr cuda = mesh::make_mesh_cuda_state();
#endif

  void fast(std::span<const Vec3> q, std::span<Complex> out, Precision precision, double q_min) const {
    if (options.compute.device == Device::gpu) {
#if NANOSCATTER_HAVE_CUDA
      mesh::CudaMeshOptions c;
      c.precision = precision;
      c.max_device_memory = options.compute.max_device_memory;
      c.q_min = q_min;
      mesh::form_factor_cuda(data->tiles, q, out, c, *cuda, stats);
      return;
#endif
    }
    mesh::form_factor_cpu(data->tiles, q, out, precision, options.compute.threads, q_min);
  }

  // out[i] = F(q[i]) through the routes described at the top of the file.
  void run(std::span<const Vec3> q, std::span<Complex> out) const {
    const double reference_q = data->reference_q();
    const bool single = options.compute.precision == Precision::float32;
    const double fast_q = single ? kSingleLimit / data->tiles.radius : reference_q;
    // Host loops over every q in parallel: on a GPU run with a small mesh
    // they are a visible part of the time.
    const std::ptrdiff_t n = std::ptrdiff_t(q.size());
    const int threads = options.compute.threads > 0 ? options.compute.threads : omp_get_max_threads();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::ptrdiff_t i = 0; i < n; ++i) out[i] = Complex(0);
    fast(q, out, options.compute.precision, fast_q);
    std::vector<unsigned char> route(q.size());  // 0 fast, 1 small, 2 tiny
    // The kernels skip a point when dot(q, q) < q_min² (and leave it for
    // these routes); the host's own dot product may round differently from
    // the device's (FMA contraction), so a point within 1e-9 of a limit goes
    // to the next route down, which is accurate for it too. Without the
    // margin a q on the limit could be skipped by the kernel yet routed to
    // it here, and come back 0.
    constexpr double kRouteMargin = 1 + 1e-9;
    const double reference_q2 = reference_q * reference_q * kRouteMargin, fast_q2 = fast_q * fast_q * kRouteMargin;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      const double q2 = dot(q[i], q[i]);
      route[i] = q2 < reference_q2 ? 2 : (q2 < fast_q2 ? 1 : 0);
    }
    std::vector<std::size_t> small, tiny;
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (route[i] == 2)
        tiny.push_back(i);
      else if (route[i] == 1)
        small.push_back(i);
    }
    if (!small.empty()) {
      std::vector<Vec3> qs(small.size());
      std::vector<Complex> fs(small.size());
      for (std::size_t j = 0; j < small.size(); ++j) qs[j] = q[small[j]];
      // The stats keep the launch shape of the main (fast-route) run, not
      // that of this handful of float64 points.
      const MeshRunStats shape = stats;
      fast(qs, fs, Precision::float64, reference_q);
      stats.threads_per_block = shape.threads_per_block;
      stats.threads_per_q = shape.threads_per_q;
      stats.q_per_thread = shape.q_per_thread;
      stats.blend_kernel = shape.blend_kernel;
      for (std::size_t j = 0; j < small.size(); ++j) out[small[j]] = fs[j];
    }
    // The reference series costs ~1 µs per triangle and q: in parallel (with
    // q log-uniform down to 0 this loop, serial, took most of a GPU run).
    const std::ptrdiff_t n_tiny = std::ptrdiff_t(tiny.size());
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
    for (std::ptrdiff_t j = 0; j < n_tiny; ++j)
      out[tiny[j]] = detail::face_set_transform(data->faces, CVec3(q[tiny[j]]));
    stats.double_points += small.size();
    stats.reference_points += tiny.size();
  }
};

void MeshFormFactorOptions::validate() const { compute.validate(); }

MeshFormFactorPlan::MeshFormFactorPlan(const TriangleMesh& mesh, MeshFormFactorOptions options)
    : MeshFormFactorPlan(MeshFormFactor(mesh), options) {}

MeshFormFactorPlan::MeshFormFactorPlan(const MeshFormFactor& form_factor, MeshFormFactorOptions options)
    : impl_(std::make_unique<Impl>()) {
  options.validate();
  impl_->options = options;
  impl_->data = form_factor.impl_;
}

MeshFormFactorPlan::~MeshFormFactorPlan() = default;
MeshFormFactorPlan::MeshFormFactorPlan(MeshFormFactorPlan&&) noexcept = default;
MeshFormFactorPlan& MeshFormFactorPlan::operator=(MeshFormFactorPlan&&) noexcept = default;
const MeshRunStats& MeshFormFactorPlan::last_stats() const { return impl_->stats; }
std::size_t MeshFormFactorPlan::triangle_count() const { return impl_->data->tiles.triangles; }

void MeshFormFactorPlan::execute(std::span<const Vec3> q, std::span<Complex> out) const {
  if (q.size() != out.size()) fail("MeshFormFactorPlan::execute: q and out differ in length");
  for (const Vec3& v : q)
    if (!is_finite(v)) fail_at({"", 0, "q"}, "q vectors must be finite");
  impl_->stats = {};
  impl_->run(q, out);
}

void validate_qgrid(const QGrid3D& grid) {
  const std::vector<double>* axes[3] = {&grid.qx, &grid.qy, &grid.qz};
  const char* names[3] = {"qx", "qy", "qz"};
  for (int a = 0; a < 3; ++a) {
    if (axes[a]->empty()) fail_option(names[a], "the grid has 0 points along this axis (need ≥ 1)");
    for (double v : *axes[a])
      if (!std::isfinite(v)) fail_option(names[a], "grid values must be finite, got ", v);
  }
}

void MeshFormFactorPlan::execute(const QGrid3D& grid, std::span<Complex> out) const {
  validate_qgrid(grid);
  if (out.size() != grid.size()) fail("MeshFormFactorPlan::execute: output size differs from the grid's");
  impl_->stats = {};
  const std::size_t n = grid.size(), nyz = grid.qy.size() * grid.qz.size(), nz = grid.qz.size();
  std::vector<Vec3> q;
  for (std::size_t first = 0; first < n; first += kGridChunk) {
    const std::size_t count = std::min(kGridChunk, n - first);
    q.resize(count);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t p = first + i;
      q[i] = {grid.qx[p / nyz], grid.qy[(p / nz) % grid.qy.size()], grid.qz[p % nz]};
    }
    impl_->run(q, out.subspan(first, count));
  }
}

}  // namespace nanoscatter::gisaxs
