// CUDA path of the analytic GPU path (analytic_backend.hpp): one thread per
// pixel runs analytic::pixel_intensity over the device copy of the tables.
// The geometry stays resident between executes; the output of a pixel range
// comes back through one device buffer sized for the whole image.
#include <cuda_runtime.h>

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

}  // namespace

struct AnalyticCudaState {
  DeviceBuffer<double> qx, qy, qz, scale, chebyshev, gauss, structure, out;
  DeviceBuffer<std::uint8_t> reachable;
  DeviceBuffer<std::uint32_t> field_row;
  DeviceBuffer<analytic::Field> outgoing, incident;
  DeviceBuffer<analytic::Kind> kinds;
  DeviceBuffer<analytic::LayoutTerms> layouts;
  analytic::PixelView view;  // device pointers into the buffers above
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
                          double* out) {
  if (count == 0) return;
  if (first + count > s.view.pixels) fail("analytic_pixels_cuda: pixel range beyond the detector");
  const unsigned blocks = static_cast<unsigned>((count + kThreadsPerBlock - 1) / kThreadsPerBlock);
  if (precision == Precision::float32)
    analytic_pixel_kernel<float><<<blocks, kThreadsPerBlock>>>(s.view, first, count, s.out.data());
  else
    analytic_pixel_kernel<double><<<blocks, kThreadsPerBlock>>>(s.view, first, count, s.out.data());
  NS_CUDA_CHECK_LAUNCH();
  NS_CUDA_CHECK(cudaMemcpy(out, s.out.data(), count * sizeof(double), cudaMemcpyDeviceToHost));
}

}  // namespace nanoscatter::gisaxs
