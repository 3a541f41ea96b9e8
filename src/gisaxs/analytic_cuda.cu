// CUDA path of the analytic GPU path (analytic_backend.hpp): one thread per
// pixel runs analytic::pixel_intensity over the device copy of the tables.
// The geometry stays resident between executes; the output of a pixel range
// comes back through one device buffer sized for the whole image. A
// re-evaluated plan keeps each kind's amplitudes in a buffer of its own:
// one launch fills the buffers of the kinds that changed
// (analytic::pixel_amplitude, one thread per pixel and kind), then the
// pixel function combines them.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "core/device_buffer.cuh"
#include "gisaxs/analytic_backend.hpp"
#include "gisaxs/analytic_pixel.hpp"

namespace nanoscatter::gisaxs {

namespace {

// 128 threads: the pixel function keeps ~30 float64 complex values live;
// small blocks leave the register file room for several blocks per SM.
constexpr int kThreadsPerBlock = 128;

template <class Real>
__global__ void analytic_pixel_kernel(analytic::PixelView view, std::size_t first, std::size_t count, double* out) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  out[i] = analytic::pixel_intensity<Real>(view, first + i);
}

// kinds[blockIdx.y]'s amplitudes at pixels [first, first + count) into its
// kept buffer (unreachable pixels are never read).
template <class Real>
__global__ void analytic_amplitude_kernel(analytic::PixelView view, const std::int32_t* kinds, std::size_t first,
                                          std::size_t count) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count || !view.reachable[first + i]) return;
  const std::int32_t k = kinds[blockIdx.y];
  view.amplitudes[k][first + i] = analytic::pixel_amplitude<Real>(view, k, first + i);
}

// One image per set: blockIdx.y picks the set's view (the same geometry,
// its own particle tables), out + y·pixels its image.
template <class Real>
__global__ void analytic_batch_kernel(const analytic::PixelView* views, std::size_t pixels, double* out) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  const analytic::PixelView& view = views[blockIdx.y];
  out[std::size_t(blockIdx.y) * pixels + i] = analytic::pixel_intensity<Real>(view, i);
}

}  // namespace

struct AnalyticCudaState {
  DeviceBuffer<double> qx, qy, qz, scale, chebyshev, gauss, structure, out;
  DeviceBuffer<std::uint8_t> reachable;
  DeviceBuffer<std::uint32_t> field_row;
  DeviceBuffer<analytic::Field> outgoing, incident;
  DeviceBuffer<analytic::Kind> kinds;
  DeviceBuffer<analytic::LayoutTerms> layouts;
  analytic::PixelView view;  // device pointers into the buffers above (no kept amplitudes)
  // Kept amplitudes: one buffer per position, and per kind of the current
  // particles its buffer or null (bind_kept_amplitudes).
  std::vector<DeviceBuffer<analytic::Cx<double>>> kept;
  DeviceBuffer<analytic::Cx<double>*> kept_of_kind;
  // The kinds a fill launch computes, kept between launches: a fit's step
  // then allocates nothing (a cudaMalloc/cudaFree pair costs more than the
  // GALAXI image's launch).
  mutable DeviceBuffer<std::int32_t> fill_kinds;
};

void AnalyticCudaStateDeleter::operator()(AnalyticCudaState* s) const { delete s; }
AnalyticCudaStatePtr make_analytic_cuda_state() { return AnalyticCudaStatePtr(new AnalyticCudaState); }

std::size_t analytic_device_budget(std::size_t max_device_memory) {
  return device_memory_budget(max_device_memory);
}

void upload_geometry(AnalyticCudaState& s, const AnalyticGeometry& g) {
  s.qx = DeviceBuffer<double>(g.qx);
  s.qy = DeviceBuffer<double>(g.qy);
  s.qz = DeviceBuffer<double>(g.qz);
  s.scale = DeviceBuffer<double>(g.scale);
  s.reachable = DeviceBuffer<std::uint8_t>(g.reachable);
  s.field_row = DeviceBuffer<std::uint32_t>(g.field_row);
  s.outgoing = DeviceBuffer<analytic::Field>(g.outgoing);
  s.incident = DeviceBuffer<analytic::Field>(g.incident);
  s.chebyshev = DeviceBuffer<double>(g.chebyshev);
  s.gauss = DeviceBuffer<double>(g.gauss);
  s.out = DeviceBuffer<double>(g.pixels());
  set_geometry_view(s.view, g, s);
}

void upload_particles(AnalyticCudaState& s, const AnalyticParticles& a) {
  s.kinds = DeviceBuffer<analytic::Kind>(a.kinds);
  s.layouts = DeviceBuffer<analytic::LayoutTerms>(a.layouts);
  s.structure = DeviceBuffer<double>(a.structure);
  s.view.kinds = s.kinds.data();
  s.view.layouts = s.layouts.data();
  s.view.layout_count = static_cast<std::int32_t>(a.layouts.size());
  s.view.structure = s.structure.data();
}

void analytic_pixels_cuda(const AnalyticCudaState& s, Precision precision, std::size_t first, std::size_t count,
                          double* out, bool kept) {
  if (count == 0) return;
  if (first + count > s.view.pixels) fail("analytic_pixels_cuda: pixel range beyond the detector");
  analytic::PixelView view = s.view;
  if (kept) view.amplitudes = s.kept_of_kind.data();
  const unsigned blocks = static_cast<unsigned>((count + kThreadsPerBlock - 1) / kThreadsPerBlock);
  if (precision == Precision::float32)
    analytic_pixel_kernel<float><<<blocks, kThreadsPerBlock>>>(view, first, count, s.out.data());
  else
    analytic_pixel_kernel<double><<<blocks, kThreadsPerBlock>>>(view, first, count, s.out.data());
  NS_CUDA_CHECK_LAUNCH();
  NS_CUDA_CHECK(cudaMemcpy(out, s.out.data(), count * sizeof(double), cudaMemcpyDeviceToHost));
}

void bind_kept_amplitudes(AnalyticCudaState& s, const std::vector<std::ptrdiff_t>& position) {
  std::vector<analytic::Cx<double>*> of_kind(position.size(), nullptr);
  for (std::size_t k = 0; k < position.size(); ++k) {
    if (position[k] < 0) continue;
    const std::size_t p = std::size_t(position[k]);
    if (p >= s.kept.size()) s.kept.resize(p + 1);
    if (s.kept[p].size() != s.view.pixels) s.kept[p] = DeviceBuffer<analytic::Cx<double>>(s.view.pixels);
    of_kind[k] = s.kept[p].data();
  }
  // Never empty, so that its data() is a valid table for a plan of no kinds too.
  if (of_kind.empty()) of_kind.push_back(nullptr);
  if (s.kept_of_kind.size() == of_kind.size())
    s.kept_of_kind.upload(of_kind);  // each set_layouts rebinds: no new allocation
  else
    s.kept_of_kind = DeviceBuffer<analytic::Cx<double>*>(of_kind);
}

void fill_kept_amplitudes(const AnalyticCudaState& s, Precision precision, const std::vector<std::size_t>& kinds,
                          std::size_t first, std::size_t count) {
  if (kinds.empty() || count == 0) return;
  if (first + count > s.view.pixels) fail("fill_kept_amplitudes: pixel range beyond the detector");
  analytic::PixelView view = s.view;
  view.amplitudes = s.kept_of_kind.data();
  const unsigned blocks = static_cast<unsigned>((count + kThreadsPerBlock - 1) / kThreadsPerBlock);
  // gridDim.y is at most 65535: that many kinds per launch.
  constexpr std::size_t kKindsPerLaunch = 65535;
  for (std::size_t from = 0; from < kinds.size(); from += kKindsPerLaunch) {
    const std::size_t n = std::min(kKindsPerLaunch, kinds.size() - from);
    std::vector<std::int32_t> part(n);
    for (std::size_t j = 0; j < n; ++j) part[j] = static_cast<std::int32_t>(kinds[from + j]);
    if (s.fill_kinds.size() < n) s.fill_kinds = DeviceBuffer<std::int32_t>(n);
    s.fill_kinds.upload(part.data(), n);  // a blocking copy: the previous launch has read it
    const dim3 grid(blocks, static_cast<unsigned>(n));
    if (precision == Precision::float32)
      analytic_amplitude_kernel<float><<<grid, kThreadsPerBlock>>>(view, s.fill_kinds.data(), first, count);
    else
      analytic_amplitude_kernel<double><<<grid, kThreadsPerBlock>>>(view, s.fill_kinds.data(), first, count);
    NS_CUDA_CHECK_LAUNCH();
  }
}

std::size_t kept_amplitude_bytes(const AnalyticCudaState& s) {
  std::size_t bytes = 0;
  for (const auto& buffer : s.kept) bytes += buffer.size() * sizeof(analytic::Cx<double>);
  return bytes;
}

void analytic_images_batch_cuda(const AnalyticCudaState& s, Precision precision,
                                const std::vector<AnalyticParticles>& sets, const std::vector<double*>& out) {
  if (sets.empty()) return;
  if (out.size() != sets.size()) fail("analytic_images_batch_cuda: ", out.size(), " outputs for ", sets.size(), " sets");
  // gridDim.y is at most 65535 sets per launch; a fit's Jacobian has a few.
  if (sets.size() > 65535) fail("analytic_images_batch_cuda: more than 65535 sets in one batch");
  // Each set's tables in its own buffers (they stay alive until the copy back).
  std::vector<DeviceBuffer<analytic::Kind>> kinds;
  std::vector<DeviceBuffer<analytic::LayoutTerms>> layouts;
  std::vector<DeviceBuffer<double>> structure;
  std::vector<analytic::PixelView> views(sets.size(), s.view);
  for (std::size_t k = 0; k < sets.size(); ++k) {
    kinds.emplace_back(sets[k].kinds);
    layouts.emplace_back(sets[k].layouts);
    structure.emplace_back(sets[k].structure);
    views[k].kinds = kinds.back().data();
    views[k].layouts = layouts.back().data();
    views[k].layout_count = static_cast<std::int32_t>(sets[k].layouts.size());
    views[k].structure = structure.back().data();
  }
  const DeviceBuffer<analytic::PixelView> device_views(views);
  const std::size_t pixels = s.view.pixels;
  DeviceBuffer<double> images(pixels * sets.size());
  const dim3 grid(static_cast<unsigned>((pixels + kThreadsPerBlock - 1) / kThreadsPerBlock),
                  static_cast<unsigned>(sets.size()));
  if (precision == Precision::float32)
    analytic_batch_kernel<float><<<grid, kThreadsPerBlock>>>(device_views.data(), pixels, images.data());
  else
    analytic_batch_kernel<double><<<grid, kThreadsPerBlock>>>(device_views.data(), pixels, images.data());
  NS_CUDA_CHECK_LAUNCH();
  const std::vector<double> host = images.download();
  for (std::size_t k = 0; k < sets.size(); ++k) std::copy_n(host.data() + k * pixels, pixels, out[k]);
}

}  // namespace nanoscatter::gisaxs
