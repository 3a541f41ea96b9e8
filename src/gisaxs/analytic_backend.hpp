// CUDA backend of the analytic GPU path (analytic_cuda.cu): keeps the
// tables of analytic_tables.hpp on the device and runs the pixel function
// (analytic_pixel.hpp) one thread per pixel.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "gisaxs/analytic_tables.hpp"
#include "nanoscatter/device.hpp"

namespace nanoscatter::gisaxs {

#if NANOSCATTER_HAVE_CUDA
// The device copies of one plan's tables and its output buffer.
struct AnalyticCudaState;
struct AnalyticCudaStateDeleter {
  void operator()(AnalyticCudaState* s) const;
};
using AnalyticCudaStatePtr = std::unique_ptr<AnalyticCudaState, AnalyticCudaStateDeleter>;
AnalyticCudaStatePtr make_analytic_cuda_state();

// Bytes of device memory the path may use (max_device_memory; 0: half the free memory).
std::size_t analytic_device_budget(std::size_t max_device_memory);
// Copies the geometry (once per plan) or the particles (after each change).
void upload_geometry(AnalyticCudaState& state, const AnalyticGeometry& geometry);
void upload_particles(AnalyticCudaState& state, const AnalyticParticles& particles);
// out[i] = I(pixel first + i), i < count: float32 form factors with float64
// sums (float32) or float64 throughout (float64). `kept`: the kinds bound
// by bind_kept_amplitudes read their kept amplitudes (the others are
// computed); otherwise every kind is computed (one fused pass).
void analytic_pixels_cuda(const AnalyticCudaState& state, Precision precision, std::size_t first, std::size_t count,
                          double* out, bool kept = false);

// Amplitudes kept on the device per particle kind (api.cpp binds them with
// an AmplitudeCache of external storage): position[k] is the buffer of
// kind k of the current particles, or −1 (none: computed in every pass).
// One buffer of A(pixel) per position (complex float64, the whole image),
// allocated on first use and kept with the state.
void bind_kept_amplitudes(AnalyticCudaState& state, const std::vector<std::ptrdiff_t>& position);
// Computes the bound buffers of `kinds` at pixels [first, first + count)
// (form factors in float32 for precision float32, stored in float64).
void fill_kept_amplitudes(const AnalyticCudaState& state, Precision precision, const std::vector<std::size_t>& kinds,
                          std::size_t first, std::size_t count);
// Bytes the kept amplitudes' buffers hold now.
std::size_t kept_amplitude_bytes(const AnalyticCudaState& state);
// Whole images for several particle tables over the resident geometry in
// one launch (a fit's finite-difference Jacobian): out[k] gets the
// geometry's pixels for sets[k]. The tables of all sets are uploaded
// together; the caller keeps them within the device budget
// (analytic_batch_bytes). The state's own particles are not changed.
void analytic_images_batch_cuda(const AnalyticCudaState& state, Precision precision,
                                const std::vector<AnalyticParticles>& sets, const std::vector<double*>& out);
#endif

}  // namespace nanoscatter::gisaxs
