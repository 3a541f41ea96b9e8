// GisaxsPlan: builds the particle kinds (size distributions sampled, shapes
// made, contrasts and weights fixed), the pixel grid and the incident fields
// once; execute() then runs blocks of pixels over OpenMP threads:
//   per block: outgoing fields at each α_f (Parratt), per particle kind the
//   DWBA (or Born) q vectors of every pixel → form factors on the whole array
//   → amplitudes; per layout the incoherent and coherent sums and S(q∥);
//   I = ρ_s [Σ w|A|² + |Σ w A|² (S − 1)] ΔΩ I_beam / sin α_i  (decoupling),
//   I = ρ_s S Σ w|A|² ΔΩ I_beam / sin α_i                 (local monodisperse),
//   A = (π/λ²) Σ_components (n_c² − n_host²) F_DWBA,c;
//   the SSCA as ssca.hpp says. Beam divergence and wavelength spread: one
//   BeamState per sampled (α_i, φ_i, λ), the pixels' directions fixed, the
//   images summed with the weights; then + background, then the detector
//   resolution (a convolution of the whole image, in execute()).
// With device gpu and only analytic shapes the per-pixel work above runs on
// the GPU instead (analytic_tables.hpp, analytic_cuda.cu); choose_path()
// decides and device_summary() reports it. Either path keeps the amplitudes
// of each kind for a re-evaluated plan (amplitude_cache.hpp): the CPU loop
// in host memory, the GPU path in device buffers.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <numbers>
#include <optional>
#include <string>

#include "core/omp_errors.hpp"
#include "gisaxs/amplitude_cache.hpp"
#include "gisaxs/analytic_backend.hpp"
#include "gisaxs/analytic_tables.hpp"
#include "gisaxs/dwba.hpp"
#include "gisaxs/mesh/mesh_evaluate.hpp"
#include "gisaxs/particle_components.hpp"
#include "gisaxs/plan_state.hpp"
#include "gisaxs/sample_frame.hpp"
#include "gisaxs/interference/interference.hpp"
#include "gisaxs/multilayer.hpp"
#include "gisaxs/size_distribution.hpp"
#include "gisaxs/special_functions.hpp"
#include "gisaxs/ssca.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/progress.hpp"
#include "nanoscatter/stopwatch.hpp"

namespace nanoscatter::gisaxs {

Approximation parse_approximation(const std::string& name) {
  if (name == "dwba") return Approximation::dwba;
  if (name == "born") return Approximation::born;
  fail_option("approximation", "unknown approximation '", name, "' (dwba, born)");
}

const char* to_string(Approximation a) { return a == Approximation::dwba ? "dwba" : "born"; }

void GisaxsOptions::validate() const {
  if (block_pixels == 0) fail_option("block_pixels", "must be ≥ 1");
  compute.validate();
  validate_work_share(share);
}

void GisaxsResult::reduce(const parallel::Communicator& comm) {
  if (!comm.distributed()) {
    pending_resolution.apply(rows, cols, intensity);
    pending_resolution = {};
    return;
  }
  comm.merge_disjoint(intensity);
  std::vector<double> work{double(computed_pixels)};
  comm.sum_in_rank_order(work);
  comm.broadcast(intensity);
  comm.broadcast(work);
  computed_pixels = std::size_t(work[0]);
  pending_resolution.apply(rows, cols, intensity);
  pending_resolution = {};
}

namespace {

// Scratch arrays of one thread, sized for one block.
struct Workspace {
  std::vector<LayerField> outgoing;  // pixels × layers
  std::vector<std::uint8_t> active;
  std::vector<CVec3> q;
  std::vector<Complex> coefficient, form_factor, amplitude, coherent;
  std::vector<Complex> coherent_conjugate, coupling;  // the SSCA's B and P
  std::vector<double> incoherent, structure, qx, qy, qz, q_parallel;
  std::vector<double> beam_image;  // one beam's intensities of the block
};

// Under a work share of P parts: about kBlocksPerPart blocks per part, so
// that round-robin dealing balances small images too, but never blocks of
// fewer than kMinSharedBlock pixels (each block has a fixed cost).
constexpr std::size_t kBlocksPerPart = 8;
constexpr std::size_t kMinSharedBlock = 64;

std::size_t block_size(const GisaxsOptions& o, std::size_t pixels) {
  if (o.share.whole()) return o.block_pixels;
  const std::size_t blocks = kBlocksPerPart * std::size_t(o.share.count);
  return std::clamp<std::size_t>((pixels + blocks - 1) / blocks, std::min(kMinSharedBlock, o.block_pixels),
                                 o.block_pixels);
}


// Bytes the CPU loop may keep of per-pixel amplitudes (pixels × beams
// complex values per particle kind) for re-evaluations (amplitude_cache.hpp);
// kinds beyond it are computed on every execute.
constexpr std::size_t kAmplitudeCacheBytes = std::size_t(512) << 20;

}  // namespace

struct GisaxsPlan::Impl {
  GisaxsOptions options;
  PixelGrid pixels;
  std::vector<BeamState> beams;
  std::vector<LayoutPlan> layouts;
  std::size_t kind_count = 0;
  std::size_t block = 0;  // pixels per block (block_size)
  double background = 0;
  ResolutionConvolution resolution;

  // The sample without its layouts: set_layouts checks new layouts against it.
  Sample frame;
  // The analytic GPU path (analytic_tables.hpp): taken when device is gpu
  // and every kind is a shape it evaluates; `summary` says where the pixel
  // work runs and, on the CPU, why.
  bool analytic_gpu = false;
  std::string summary = "CPU";
  std::optional<AnalyticGeometry> geometry;  // kept across set_layouts
  AnalyticParticles particles;
#if NANOSCATTER_HAVE_CUDA
  AnalyticCudaStatePtr cuda;
  mutable std::mutex cuda_mutex;  // one output buffer per plan
  // The GPU path's amplitudes per kind (external storage: the device
  // buffers of `cuda`), made at the first execute of a re-evaluated plan
  // with the room the device budget leaves beside the tables.
  mutable std::optional<AmplitudeCache> device_amplitudes;
#endif

  Impl(const Sample& sample, GisaxsOptions opts)
      : options(opts), pixels(make_pixel_grid(sample.detector, sample.beam)), beams(beam_states(sample)),
        block(block_size(opts, pixels.size())), background(sample.background), frame(sample),
        amplitude_cache(beams.size() * pixels.size(), kAmplitudeCacheBytes) {
    frame.layouts.clear();
    if (sample.resolution) resolution = make_resolution_convolution(sample.detector, pixels, *sample.resolution);
    set_layouts(sample);
  }

  // New particle kinds; the pixel grid, the Parratt fields and their GPU
  // copies stay, and so do the amplitudes (and mesh tables) of every kind
  // whose description did not change (amplitude_cache.hpp).
  // `refit`: a caller's set_layouts (GisaxsPlan::set_layouts), which marks
  // the plan as re-evaluated, so that its next execute() keeps amplitudes
  // (a plan executed once, as the CLI's, never pays for them).
  void set_layouts(const Sample& sample, bool refit = false) {
    if (refit) amplitudes_wanted = true;
    std::vector<LayoutPlan> next = layout_plans(sample);
    keep_mesh_tables(layouts, next);
    layouts = std::move(next);
    kind_count = 0;
    for (const LayoutPlan& l : layouts) kind_count += l.kinds.size();
    amplitude_cache.unbind();
#if NANOSCATTER_HAVE_CUDA
    if (device_amplitudes) device_amplitudes->unbind();
#endif
    choose_path();
  }
  // The filled mesh tables of old kinds go to the new kinds of the same
  // description (the tables hold F at every pixel's q of the kind).
  static void keep_mesh_tables(const std::vector<LayoutPlan>& old_layouts, std::vector<LayoutPlan>& new_layouts);
  // Whether ensure_tables still has to evaluate a kind's mesh tables.
  static bool tables_missing(const ParticleKind& kind) {
    for (const Component& c : kind.components)
      if (c.mesh && c.table->empty()) return true;
    return false;
  }
  std::size_t batched_images = 0, batch_launches = 0;  // execute_batch (Stats)

  // The CPU loop's amplitudes per kind, bound to the kinds by execute()
  // once the plan is re-evaluated (amplitudes_wanted); each slot holds
  // this part's blocks (index beam · pixels + pixel).
  mutable AmplitudeCache amplitude_cache;
  bool amplitudes_wanted = false;
  mutable std::atomic<std::size_t> amplitude_pixels{0};
  // Stats: kinds computed and reused by execute(), the last one's computed
  // kinds, kinds whose mesh tables were evaluated.
  mutable std::size_t kinds_computed = 0, kinds_reused = 0, mesh_table_kinds = 0;
  mutable std::vector<std::size_t> last_computed_kinds;
  // Picks the analytic GPU path or the CPU pixel loop and says why.
  void choose_path();
  // Pixels [first, first + count) on the analytic GPU path; `kept`: the
  // bound device cache (kept_amplitudes), whose unfilled kinds are
  // computed first, or nullptr (every kind computed in one fused pass).
  void compute_gpu(std::size_t first, std::size_t count, double* out, const AmplitudeCache* kept = nullptr) const;
  // The amplitude cache of the path taken, bound to the current kinds, for
  // execute() of a re-evaluated plan; nullptr before (amplitudes_wanted).
  AmplitudeCache* kept_amplitudes() const;

  mutable std::mutex tables_mutex;

  std::size_t terms() const { return options.approximation == Approximation::dwba ? 4 : 1; }
  // Σ_beams w_b I_b + background for a block of pixels.
  // `cache`: execute()'s whole-plan run, which reads or fills amplitude_cache.
  void compute_block(std::size_t first, std::size_t count, double* out, Workspace& ws, bool cache = false) const;
  // One beam's image of a block.
  void compute_beam_block(const BeamState& beam, std::size_t beam_index, std::size_t first, std::size_t count,
                          double* out, Workspace& ws, bool cache) const;
  // Sizes the workspace, sets the pixels' q for the beam and computes the
  // outgoing fields of a block.
  void prepare_block(const BeamState& beam, std::size_t first, std::size_t count, Workspace& ws) const;
  // The q vectors (particle frame) and coefficients of a kind's terms.
  void kind_terms(const BeamState& beam, const ParticleKind& kind, std::size_t count, Workspace& ws) const;
  void kind_amplitude(const BeamState& beam, const ParticleKind& kind, std::size_t first, std::size_t count,
                      Workspace& ws) const;
  // GPU or float32 runs: fills the mesh components' tables once (before the
  // pixel loop).
  void ensure_tables() const;
  // The pixels [first, first + count) of the blocks this part owns
  // (options.share), in order; `merged`: runs of adjacent blocks as one
  // range (a whole image is one GPU launch).
  struct PixelRange {
    std::size_t first = 0, count = 0;
  };
  std::vector<PixelRange> owned_ranges(bool merged = false) const;
};

std::vector<GisaxsPlan::Impl::PixelRange> GisaxsPlan::Impl::owned_ranges(bool merged) const {
  const std::size_t n = pixels.size();
  std::vector<PixelRange> ranges;
  for (std::size_t b = 0; b * block < n; ++b) {
    if (!options.share.owns(b)) continue;
    const std::size_t first = b * block, count = std::min(block, n - first);
    if (merged && !ranges.empty() && ranges.back().first + ranges.back().count == first)
      ranges.back().count += count;
    else
      ranges.push_back({first, count});
  }
  return ranges;
}

void GisaxsPlan::Impl::choose_path() {
  analytic_gpu = false;
  summary = "CPU";
  if (options.compute.device != Device::gpu) return;
  std::string reason = analytic_unsupported(layouts, beams);
#if NANOSCATTER_HAVE_CUDA
  if (reason.empty()) {
    if (!geometry) geometry = make_analytic_geometry(pixels, beams.front(), options.approximation, background);
    particles = make_analytic_particles(layouts, pixels);
    const std::size_t bytes = analytic_device_bytes(*geometry, particles);
    const std::size_t budget = analytic_device_budget(options.compute.max_device_memory);
    if (bytes > budget) {
      reason = "its tables (" + std::to_string(bytes >> 20) + " MiB) exceed the device memory budget (" +
               std::to_string(budget >> 20) + " MiB)";
    } else {
      if (!cuda) {
        cuda = make_analytic_cuda_state();
        upload_geometry(*cuda, *geometry);
      }
      upload_particles(*cuda, particles);
      analytic_gpu = true;
      summary = std::string("GPU (analytic form factors, DWBA sums and interference; ") +
                (options.compute.precision == Precision::float32 ? "float32 form factors, float64 sums)" : "float64)");
      return;
    }
  }
#endif
  summary = "CPU pixel loop (" + reason + " not on the GPU path" +
            (reason.find("mesh") == std::string::npos ? "" : "; mesh form factors on the GPU") + ")";
  if (!options.compute.quiet) std::fprintf(stderr, "gisaxs: --device gpu: %s\n", summary.c_str());
}

void GisaxsPlan::Impl::compute_gpu(std::size_t first, std::size_t count, double* out,
                                   const AmplitudeCache* kept) const {
#if NANOSCATTER_HAVE_CUDA
  const std::lock_guard<std::mutex> lock(cuda_mutex);
  if (kept) {
    std::vector<std::size_t> fill;
    for (std::size_t k = 0; k < kind_count; ++k)
      if (kept->position(k) >= 0 && !kept->ready(k)) fill.push_back(k);
    fill_kept_amplitudes(*cuda, options.compute.precision, fill, first, count);
  }
  analytic_pixels_cuda(*cuda, options.compute.precision, first, count, out, kept != nullptr);
#else
  (void)first, (void)count, (void)out, (void)kept;
  fail("gisaxs: the analytic GPU path needs a CUDA build");
#endif
}

AmplitudeCache* GisaxsPlan::Impl::kept_amplitudes() const {
  if (!amplitudes_wanted) return nullptr;
#if NANOSCATTER_HAVE_CUDA
  if (analytic_gpu) {
    const std::lock_guard<std::mutex> lock(cuda_mutex);
    if (!device_amplitudes) {
      // Slots of one kind's A(pixel) (complex float64) in what the budget
      // leaves beside the tables; none fit: every kind computed in the
      // fused pass on every execute (Stats::kinds_computed says so).
      const std::size_t budget = analytic_device_budget(options.compute.max_device_memory);
      const std::size_t resident = analytic_device_bytes(*geometry, particles);
      device_amplitudes.emplace(pixels.size(), budget > resident ? budget - resident : 0,
                                AmplitudeCache::Storage::external);
    }
    if (!device_amplitudes->bound()) {
      device_amplitudes->bind(layouts);
      std::vector<std::ptrdiff_t> position(kind_count);
      for (std::size_t k = 0; k < kind_count; ++k) position[k] = device_amplitudes->position(k);
      bind_kept_amplitudes(*cuda, position);
    }
    return &*device_amplitudes;
  }
#endif
  if (!amplitude_cache.bound()) amplitude_cache.bind(layouts);
  return &amplitude_cache;
}

void GisaxsPlan::Impl::prepare_block(const BeamState& beam, std::size_t first, std::size_t count,
                                     Workspace& ws) const {
  const bool dwba = options.approximation == Approximation::dwba;
  const Multilayer& multilayer = beam.multilayer;
  const std::size_t n_layers = multilayer.size();
  const std::size_t terms = this->terms();
  ws.active.assign(count, 0);
  ws.outgoing.resize(count * n_layers);
  ws.q.resize(count * terms);
  ws.coefficient.resize(count * terms);
  ws.form_factor.resize(count * terms);
  ws.amplitude.resize(count);
  ws.coherent.resize(count);
  ws.coherent_conjugate.resize(count);
  ws.coupling.resize(count);
  ws.incoherent.resize(count);
  ws.structure.resize(count);
  ws.qx.resize(count);
  ws.qy.resize(count);
  ws.qz.resize(count);
  ws.q_parallel.resize(count);
  const double k = 2 * std::numbers::pi / beam.beam.wavelength;
  const double ca = std::cos(beam.beam.alpha_i), sa = std::sin(beam.beam.alpha_i);
  const double cp = std::cos(beam.beam.phi_i), sp = std::sin(beam.beam.phi_i);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t p = first + i;
    if (beam.nominal) {
      ws.qx[i] = pixels.qx[p];
      ws.qy[i] = pixels.qy[p];
      ws.qz[i] = pixels.qz[p];
    } else {  // q = k_i − k_f for this beam, the pixel's direction (α_f, φ_f) fixed
      const double cf = std::cos(pixels.alpha_f[p]);
      ws.qx[i] = k * (ca * cp - cf * std::cos(pixels.phi_f[p]));
      ws.qy[i] = k * (-ca * sp + cf * std::sin(pixels.phi_f[p]));
      ws.qz[i] = k * (-sa - std::sin(pixels.alpha_f[p]));
    }
    ws.q_parallel[i] = std::hypot(ws.qx[i], ws.qy[i]);
    ws.active[i] = pixels.reachable[p];
    if (!dwba || !ws.active[i]) continue;
    // Pixels of one detector row share α_f: reuse the previous pixel's fields.
    if (i > 0 && ws.active[i - 1] && pixels.alpha_f[p - 1] == pixels.alpha_f[p])
      std::copy_n(&ws.outgoing[(i - 1) * n_layers], n_layers, &ws.outgoing[i * n_layers]);
    else
      multilayer.fields(pixels.alpha_f[p], &ws.outgoing[i * n_layers]);
  }
}

void GisaxsPlan::Impl::kind_terms(const BeamState& beam, const ParticleKind& kind, std::size_t count,
                                  Workspace& ws) const {
  const bool dwba = options.approximation == Approximation::dwba;
  const std::size_t n_layers = beam.multilayer.size();
  const std::size_t terms = this->terms();
  for (std::size_t i = 0; i < count; ++i) {
    ScatteringTerms s;
    if (!ws.active[i]) {
      s.count = static_cast<int>(terms);  // q = 0, coefficient 0: a harmless placeholder
    } else if (dwba) {
      s = dwba_terms(ws.qx[i], ws.qy[i], beam.incident[kind.layer], ws.outgoing[i * n_layers + kind.layer]);
    } else {
      s = born_terms(ws.qx[i], ws.qy[i], ws.qz[i]);
    }
    for (std::size_t t = 0; t < terms; ++t) {
      const CVec3& q = s.q[t];
      // The particle's reference point sits `depth` below its layer's
      // reference interface: phase exp(i q_z (−depth)).
      ws.coefficient[i * terms + t] = kind.depth != 0 ? s.coefficient[t] * exp_i(-q.z * kind.depth)
                                                      : s.coefficient[t];
      ws.q[i * terms + t] = kind.rotated ? kind.to_particle * q : q;
    }
  }
}

// A kind's amplitude Σ_terms coefficient · F(q) over its components, per
// pixel of the block, into ws.amplitude (before the beam's prefactor).
void GisaxsPlan::Impl::kind_amplitude(const BeamState& beam, const ParticleKind& kind, std::size_t first,
                                      std::size_t count, Workspace& ws) const {
  const std::size_t terms = this->terms();
  amplitude_pixels += count;
  kind_terms(beam, kind, count, ws);
  std::fill(ws.amplitude.begin(), ws.amplitude.end(), Complex(0));
  for (const Component& c : kind.components) {
    if (c.table && !c.table->empty())
      std::copy_n(c.table->begin() + std::ptrdiff_t(first * terms), count * terms, ws.form_factor.begin());
    else
      c.form_factor->evaluate(ws.q, ws.form_factor);
    for (std::size_t i = 0; i < count; ++i) {
      Complex a = 0;
      for (std::size_t t = 0; t < terms; ++t) {
        const std::size_t j = i * terms + t;
        Complex f = ws.form_factor[j];
        if (c.has_offset) f *= exp_i(dot(ws.q[j], c.offset));
        a += ws.coefficient[j] * f;
      }
      ws.amplitude[i] += c.contrast * a;
    }
  }
}

void GisaxsPlan::Impl::compute_block(std::size_t first, std::size_t count, double* out, Workspace& ws,
                                     bool cache) const {
  if (beams.size() == 1) {
    compute_beam_block(beams.front(), 0, first, count, out, ws, cache);
  } else {
    std::fill_n(out, count, 0.0);
    ws.beam_image.resize(count);
    for (std::size_t b = 0; b < beams.size(); ++b) {
      compute_beam_block(beams[b], b, first, count, ws.beam_image.data(), ws, cache);
      for (std::size_t i = 0; i < count; ++i) out[i] += beams[b].weight * ws.beam_image[i];
    }
  }
  if (background != 0)
    for (std::size_t i = 0; i < count; ++i) out[i] += background;
}

void GisaxsPlan::Impl::compute_beam_block(const BeamState& beam, std::size_t beam_index, std::size_t first,
                                          std::size_t count, double* out, Workspace& ws, bool cache) const {
  prepare_block(beam, first, count, ws);
  std::fill_n(out, count, 0.0);
  std::size_t kind_index = 0;
  for (const LayoutPlan& layout : layouts) {
    std::fill(ws.incoherent.begin(), ws.incoherent.end(), 0.0);
    std::fill(ws.coherent.begin(), ws.coherent.end(), Complex(0));
    std::fill(ws.coherent_conjugate.begin(), ws.coherent_conjugate.end(), Complex(0));
    std::fill(ws.coupling.begin(), ws.coupling.end(), Complex(0));
    for (const ParticleKind& kind : layout.kinds) {
      Complex* saved = cache ? amplitude_cache.slot(kind_index) : nullptr;
      const bool reuse = saved && amplitude_cache.ready(kind_index);
      ++kind_index;
      if (saved) saved += beam_index * pixels.size() + first;
      if (reuse) {
        std::copy_n(saved, count, ws.amplitude.begin());
      } else {
        kind_amplitude(beam, kind, first, count, ws);
        if (saved) std::copy_n(ws.amplitude.begin(), count, saved);
      }
      if (layout.ssca) {
        for (std::size_t i = 0; i < count; ++i) {
          const Complex a = beam.amplitude_prefactor * ws.amplitude[i];
          const Complex c = layout.ssca->phase(ws.q_parallel[i], kind.radial_extension);
          ws.incoherent[i] += kind.weight * std::norm(a);
          ws.coherent[i] += kind.weight * c * a;
          ws.coherent_conjugate[i] += kind.weight * c * std::conj(a);
          ws.coupling[i] += kind.weight * c * c;
        }
        continue;
      }
      for (std::size_t i = 0; i < count; ++i) {
        const Complex a = beam.amplitude_prefactor * ws.amplitude[i];
        ws.incoherent[i] += kind.weight * std::norm(a);
        ws.coherent[i] += kind.weight * a;
      }
    }
    if (layout.ssca) {
      for (std::size_t i = 0; i < count; ++i) {
        if (!ws.active[i]) continue;
        out[i] += layout.density * (ws.incoherent[i] + layout.ssca->interference(ws.q_parallel[i], ws.coherent[i],
                                                                                  ws.coherent_conjugate[i],
                                                                                  ws.coupling[i]));
      }
      continue;
    }
    if (layout.interference)
      layout.interference->evaluate(ws.qx, ws.qy, ws.structure);
    else
      std::fill(ws.structure.begin(), ws.structure.end(), 1.0);
    for (std::size_t i = 0; i < count; ++i) {
      if (!ws.active[i]) continue;
      const double s = ws.structure[i];
      const double intensity = layout.mixture == MixtureApproximation::decoupling
                                   ? ws.incoherent[i] + std::norm(ws.coherent[i]) * (s - 1.0)
                                   : ws.incoherent[i] * s;
      out[i] += layout.density * intensity;
    }
  }
  for (std::size_t i = 0; i < count; ++i) out[i] *= pixels.solid_angle[first + i] * beam.normalisation;
}

void GisaxsPlan::Impl::ensure_tables() const {
  // Tables serve the GPU and the float32 mesh kernels (CPU or GPU); float64
  // CPU runs evaluate meshes block by block like any shape.
  if (options.compute.device != Device::gpu && options.compute.precision != Precision::float32) return;
  std::lock_guard<std::mutex> lock(tables_mutex);
  bool missing = false;
  for (const LayoutPlan& layout : layouts)
    for (const ParticleKind& kind : layout.kinds) missing = missing || tables_missing(kind);
  if (!missing) return;
  // Tables hold one beam's q; a sampled beam would need one set per beam.
  if (beams.size() > 1)
    fail_at({"", 0, "beam"}, "beam divergence or wavelength spread with mesh particles needs --device cpu ",
            "--precision double");
  const std::size_t n = pixels.size(), terms = this->terms();
  MeshFormFactorOptions mo;
  mo.compute = options.compute;
  Workspace ws;
  std::vector<CVec3> q;
  std::vector<std::size_t> at;  // q[k] belongs at table entry at[k]
  std::vector<Complex> packed;
  for (const LayoutPlan& layout : layouts)
    for (const ParticleKind& kind : layout.kinds) {
      if (!tables_missing(kind)) continue;  // no mesh, or kept by set_layouts
      ++mesh_table_kinds;
      // Every term's q of this kind for the pixels this process owns, packed,
      // so that an MPI rank evaluates its share only (the table's other
      // entries stay 0 and are never read).
      q.clear();
      at.clear();
      for (const PixelRange& r : owned_ranges()) {
        prepare_block(beams.front(), r.first, r.count, ws);
        kind_terms(beams.front(), kind, r.count, ws);
        for (std::size_t j = 0; j < r.count * terms; ++j) {
          q.push_back(ws.q[j]);
          at.push_back(r.first * terms + j);
        }
      }
      for (const Component& c : kind.components) {
        if (!c.mesh) continue;
        evaluate_mesh(*c.mesh, mo, q, packed);
        c.table->assign(n * terms, Complex(0));
        for (std::size_t k = 0; k < at.size(); ++k) (*c.table)[at[k]] = packed[k];
      }
    }
}

void GisaxsPlan::Impl::keep_mesh_tables(const std::vector<LayoutPlan>& old_layouts,
                                        std::vector<LayoutPlan>& new_layouts) {
  for (LayoutPlan& layout : new_layouts)
    for (ParticleKind& kind : layout.kinds) {
      if (!tables_missing(kind)) continue;
      for (const LayoutPlan& old_layout : old_layouts)
        for (const ParticleKind& old : old_layout.kinds)
          if (tables_missing(kind) && !tables_missing(old) && same_amplitude(old, kind))
            for (std::size_t c = 0; c < kind.components.size(); ++c) kind.components[c].table = old.components[c].table;
    }
}

GisaxsPlan::GisaxsPlan(const Sample& sample, GisaxsOptions options) {
  options.validate();
  // A sample from read_sample or parse_sample was checked as it was read.
  if (!sample.validated) validate_sample(sample);
  impl_ = std::make_unique<Impl>(sample, options);
}

GisaxsPlan::~GisaxsPlan() = default;
GisaxsPlan::GisaxsPlan(GisaxsPlan&&) noexcept = default;
GisaxsPlan& GisaxsPlan::operator=(GisaxsPlan&&) noexcept = default;

const PixelGrid& GisaxsPlan::pixels() const { return impl_->pixels; }
const std::string& GisaxsPlan::device_summary() const { return impl_->summary; }

void GisaxsPlan::set_layouts(std::vector<Layout> layouts) {
  Sample sample = impl_->frame;
  sample.layouts = std::move(layouts);
  sample.validated = false;
  validate_sample(sample);
  impl_->set_layouts(sample, /*refit=*/true);
}

void GisaxsPlan::set_layouts(const Sample& sample) {
  const std::string field = frame_difference(impl_->frame, sample);
  if (!field.empty())
    fail_at({"", 0, field}, "differs from the plan's sample; set_layouts takes particles, interference and ",
            "densities only (make a new plan for the beam, detector or layers)");
  set_layouts(sample.layouts);
}
std::size_t GisaxsPlan::particle_kinds() const { return impl_->kind_count; }
GisaxsPlan::Stats GisaxsPlan::stats() const {
  Stats s;
  s.amplitude_pixels = impl_->amplitude_pixels.load();
  s.kinds_computed = impl_->kinds_computed;
  s.kinds_reused = impl_->kinds_reused;
  s.last_computed_kinds = impl_->last_computed_kinds;
  s.mesh_table_kinds = impl_->mesh_table_kinds;
  s.batched_images = impl_->batched_images;
  s.batch_launches = impl_->batch_launches;
  return s;
}

std::vector<std::vector<double>> GisaxsPlan::execute_batch(const std::vector<std::vector<Layout>>& sets) {
  std::vector<std::vector<double>> images;
  if (sets.empty()) return images;
  // Each set checked as set_layouts checks it, and its particle tables where
  // the analytic GPU path can take it.
  std::vector<Sample> samples;
  samples.reserve(sets.size());
  for (const auto& layouts : sets) {
    Sample sample = impl_->frame;
    sample.layouts = layouts;
    sample.validated = false;
    validate_sample(sample);
    samples.push_back(std::move(sample));
  }
  std::vector<AnalyticParticles> tables;
#if NANOSCATTER_HAVE_CUDA
  bool batched = impl_->analytic_gpu && impl_->options.share.whole();
  for (std::size_t k = 0; batched && k < samples.size(); ++k) {
    const std::vector<LayoutPlan> plans = layout_plans(samples[k]);
    batched = analytic_unsupported(plans, impl_->beams).empty();
    if (batched) tables.push_back(make_analytic_particles(plans, impl_->pixels));
  }
  if (batched) {
    const std::size_t n = impl_->pixels.size();
    images.assign(sets.size(), std::vector<double>(n));
    const std::size_t budget = analytic_device_budget(impl_->options.compute.max_device_memory);
    const std::size_t resident =
        analytic_device_bytes(*impl_->geometry, impl_->particles) + kept_amplitude_bytes(*impl_->cuda);
    const std::size_t room = budget > resident ? budget - resident : 0;
    // Launches of as many sets as fit beside the resident tables (at least one).
    for (std::size_t first = 0; first < tables.size();) {
      std::size_t last = first + 1, bytes = analytic_batch_bytes(n, {tables[first]});
      while (last < tables.size() && (bytes += analytic_batch_bytes(n, {tables[last]})) <= room) ++last;
      const std::vector<AnalyticParticles> part(tables.begin() + long(first), tables.begin() + long(last));
      std::vector<double*> out;
      for (std::size_t k = first; k < last; ++k) out.push_back(images[k].data());
      {
        const std::lock_guard<std::mutex> lock(impl_->cuda_mutex);
        analytic_images_batch_cuda(*impl_->cuda, impl_->options.compute.precision, part, out);
      }
      ++impl_->batch_launches;
      impl_->batched_images += last - first;
      first = last;
    }
    for (auto& image : images) impl_->resolution.apply(impl_->pixels.rows, impl_->pixels.cols, image);
    impl_->set_layouts(samples.back(), /*refit=*/true);
    return images;
  }
#endif
  for (const Sample& sample : samples) {
    impl_->set_layouts(sample, /*refit=*/true);
    images.push_back(execute().intensity);
  }
  return images;
}

void GisaxsPlan::compute_pixels(std::size_t first, std::size_t count, double* out) const {
  if (first + count > impl_->pixels.size()) fail("GisaxsPlan::compute_pixels: pixel range beyond the detector");
  if (impl_->analytic_gpu) return impl_->compute_gpu(first, count, out);
  impl_->ensure_tables();
  Workspace ws;
  const std::size_t block = impl_->block;
  for (std::size_t b = 0; b < count; b += block)
    impl_->compute_block(first + b, std::min(block, count - b), out + b, ws);
}

GisaxsResult GisaxsPlan::execute() const {
  const Stopwatch start;
  GisaxsResult result;
  result.rows = impl_->pixels.rows;
  result.cols = impl_->pixels.cols;
  result.pixels = impl_->pixels;
  result.particle_kinds = impl_->kind_count;
  result.intensity.assign(impl_->pixels.size(), 0.0);
  impl_->ensure_tables();
  const WorkShare& share = impl_->options.share;
  // This part's pixels: one range per run of owned blocks on the GPU (one
  // launch for a whole image), one per block for the CPU threads.
  const std::vector<Impl::PixelRange> ranges = impl_->owned_ranges(impl_->analytic_gpu);
  for (const Impl::PixelRange& r : ranges) result.computed_pixels += r.count;
  // Amplitudes kept per kind for the next set_layouts (amplitude_cache.hpp),
  // on the GPU path in device buffers: the kinds not ready are computed,
  // the image recombined from all.
  AmplitudeCache* cache = impl_->kept_amplitudes();
  impl_->last_computed_kinds.clear();
  for (std::size_t k = 0; k < impl_->kind_count; ++k) {
    if (cache && cache->ready(k)) {
      ++impl_->kinds_reused;
    } else {
      ++impl_->kinds_computed;
      impl_->last_computed_kinds.push_back(k);
    }
  }
  if (impl_->analytic_gpu) {
    for (const Impl::PixelRange& r : ranges)
      impl_->compute_gpu(r.first, r.count, result.intensity.data() + r.first, cache);
  } else {
    const int threads =
        impl_->options.compute.threads > 0 ? impl_->options.compute.threads : omp_get_max_threads();
    Progress progress("gisaxs", result.computed_pixels, ProgressOptions{impl_->options.compute.quiet});
    OmpErrors errors;
#pragma omp parallel num_threads(threads)
    {
      Workspace ws;
#pragma omp for schedule(dynamic)
      for (std::size_t i = 0; i < ranges.size(); ++i) {
        const Impl::PixelRange r = ranges[i];
        errors.capture(
            [&] { impl_->compute_block(r.first, r.count, result.intensity.data() + r.first, ws, cache != nullptr); });
        progress.advance(r.count);
      }
    }
    errors.rethrow();
    progress.finish();
  }
  if (cache) cache->mark_filled();
  // The resolution convolves the whole image: now for one part, after the
  // merge (reduce) for several.
  if (share.whole())
    impl_->resolution.apply(result.rows, result.cols, result.intensity);
  else
    result.pending_resolution = impl_->resolution;
  result.seconds = start.seconds();
  return result;
}

}  // namespace nanoscatter::gisaxs
