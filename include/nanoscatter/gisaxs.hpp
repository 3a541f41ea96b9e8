// GISAXS engine: detector images of particles on or in a multilayer, in the
// distorted-wave Born approximation (DWBA) or the plain Born approximation.
// Conventions follow BornAgain so that its users meet the same numbers:
//   lengths nm, angles radians inside (degrees in files), k = 2π/λ,
//   k_i = k (cos α_i cos φ_i, −cos α_i sin φ_i, −sin α_i)  (φ measured alike for
//         both beams: φ_f = φ_i is forward; BornAgain's Beam::getCentralK),
//   k_f = k (cos α_f cos φ_f, −cos α_f sin φ_f, sin α_f),  q = k_i − k_f,
//   n = 1 − δ + iβ,  k_z,j(α) = k sqrt(n_j² − cos²α) (exact n², principal branch),
//   I = ρ_s |(π/λ²)(n_p² − n_layer²) F_DWBA|² ΔΩ / sin α_i  (× beam intensity)
// per pixel centre, ρ_s the particles per nm² (docs/gisaxs.md has the rest).
// Below the horizon (α_f < 0) the DWBA is continued as BornAgain 1.19 does:
// every k_z of the outgoing wave changes sign.
//
// Plan-style API: GisaxsPlan plan(sample, options); GisaxsResult r = plan.execute();
// Pixels are processed in blocks (GisaxsOptions::block_pixels) over OpenMP
// threads; form factors see arrays of q (gisaxs_formfactors.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/gisaxs_formfactors.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/vec3.hpp"
#include "nanoscatter/work_share.hpp"

namespace nanoscatter::gisaxs {

// ---- the sample -------------------------------------------------------------

// Refractive index n = 1 − δ + iβ (β ≥ 0).
struct Material {
  std::string name;
  double delta = 0, beta = 0;
  Complex refractive_index() const { return {1.0 - delta, beta}; }
  // n² − 1 = (n − 1)(n + 1), exact for small δ, β.
  Complex n2_minus_1() const { return Complex(-delta, beta) * Complex(2.0 - delta, beta); }
};

enum class DistributionKind { gaussian, lognormal };
// A sampled distribution of one value (BornAgain's ParameterDistribution):
// `samples` equidistant values over mean ± factor·σ (Gaussian, σ = width) or
// median·exp(±factor·s) (log-normal, s = width), the range clipped to
// [min, max] where given (BornAgain's RealLimits), each value weighted by the
// density there, weights normalised to 1. The value's nominal setting is the
// mean (Gaussian) or the median (log-normal).
struct SampledDistribution {
  DistributionKind kind = DistributionKind::gaussian;
  double width = 0;  // σ in the value's unit, or the log-normal s
  int samples = 11;
  double sigma_factor = 2;
  std::optional<double> min, max;  // limits of the sampled range (value's unit)
};

// Beam divergence and wavelength spread: every combination of the sampled
// α_i, φ_i and λ gives an image (the detector stays where the nominal beam
// put it), and the images add with the product of the weights
// (BornAgain's GISASSimulation::addParameterDistribution on the beam).
struct Beam {
  double wavelength = 0;  // nm
  double alpha_i = 0;     // rad, grazing angle of incidence, > 0
  double phi_i = 0;       // rad, azimuth of the incident beam
  double intensity = 1;   // the image scales with it
  std::optional<SampledDistribution> alpha_i_divergence;  // width and limits in rad
  std::optional<SampledDistribution> phi_i_divergence;    // width and limits in rad
  std::optional<SampledDistribution> wavelength_spread;   // width and limits in nm
};

// Layers run from the ambient (index 0, semi-infinite above) to the
// substrate (last, semi-infinite below).
struct Layer {
  std::string name;
  Material material;
  double thickness = 0;  // nm; 0 for the ambient and the substrate
  double roughness = 0;  // nm, rms roughness of the layer's top interface (Névot–Croce)
};

// φ_f × α_f bins (BornAgain's SphericalDetector); pixel centres at bin centres.
struct AngularDetector {
  std::vector<double> phi_edges;    // rad, increasing
  std::vector<double> alpha_edges;  // rad, increasing
};
// q_y × q_z bins, q_y = k (cos α_f sin φ_f − cos α_i sin φ_i) = (k_i − k_f)_y,
// q_z = k (sin α_f + sin α_i) (upwards positive, the experimentalists' q_z).
struct QGridDetector {
  std::vector<double> qy_edges, qz_edges;  // nm⁻¹, increasing
};
// A flat detector perpendicular to the direct beam at `distance`, the direct
// beam hitting it at (beam_x, beam_y) in pixel units from the lower-left
// corner; columns run towards +φ_f, rows towards +α_f (BornAgain's
// RectangularDetector set perpendicular to the direct beam). A region
// (pixel columns region_x0 … region_x0 + region_columns − 1, rows alike,
// counted from the lower-left corner) limits the image to those pixels, as
// a fit region does; region_columns = 0 means the whole detector.
struct FlatDetector {
  double distance = 0;                       // mm
  double pixel_width = 0, pixel_height = 0;  // mm
  std::size_t columns = 0, rows = 0;
  double beam_x = 0, beam_y = 0;             // pixels
  std::size_t region_x0 = 0, region_y0 = 0, region_columns = 0, region_rows = 0;
};
using Detector = std::variant<AngularDetector, QGridDetector, FlatDetector>;

// A sampled distribution of one shape parameter (SampledDistribution; for
// the GALAXI model of BornAgain's examples: log-normal radius, 20 samples,
// factor 2, max = half the host layer's thickness).
struct SizeDistribution : SampledDistribution {
  std::size_t parameter = 0;  // index into the shape's parameters
};

struct ParticleSpec {
  std::string shape;               // a shape_catalogue() name, or "mesh"
  std::vector<double> parameters;  // in the catalogue's order (lengths nm, angles rad)
  Material material;
  std::optional<Material> core_material;  // for shapes with a core
  double abundance = 1;
  std::size_t layer = 0;
  // Particle bottom below the top interface of its layer (nm); for the
  // ambient (layer 0) the reference is the first interface and depth ≤ 0
  // lifts the particle above it.
  double depth = 0;
  Mat3 rotation;  // particle frame → sample frame, about the particle's reference point
  std::vector<SizeDistribution> distributions;
  // shape "mesh": the placed, validated triangle mesh (a MeshFormFactor,
  // gisaxs_mesh.hpp); no parameters, no distributions.
  std::shared_ptr<const FormFactor> mesh;
};

// ---- interference functions (BornAgain's definitions) -----------------------
enum class ProfileKind { gauss, cauchy, voigt };
// Fourier transform of a 1D probability density, φ(0) = 1:
// gauss exp(−q²ω²/2), cauchy 1/(1 + q²ω²), voigt η·gauss + (1 − η)·cauchy.
struct Distribution1D {
  ProfileKind kind = ProfileKind::gauss;
  double omega = 0;  // nm
  double eta = 0.5;  // voigt only
};
// 2D version (FTDistribution2D): gauss exp(−(q₁²ω₁² + q₂²ω₂²)/2),
// cauchy (1 + q₁²ω₁² + q₂²ω₂²)^{−3/2}, in axes rotated by γ from the lattice
// direction (BornAgain's default δ = 90° between the axes).
struct Distribution2D {
  ProfileKind kind = ProfileKind::gauss;
  double omega_x = 0, omega_y = 0;  // nm
  double gamma = 0;                 // rad
  double eta = 0.5;
};
// Decay functions of lattices (FTDecayFunction1D/2D), normalised as BornAgain's:
// 1D cauchy 2λ/(1 + q²λ²), gauss sqrt(2π) λ exp(−q²λ²/2);
// 2D cauchy 2π λx λy (1 + qX²λx² + qY²λy²)^{−3/2}, gauss 2π λx λy exp(−(…)/2).
struct Decay1D {
  ProfileKind kind = ProfileKind::cauchy;
  double length = 0;  // nm
  double eta = 0.5;
};
struct Decay2D {
  ProfileKind kind = ProfileKind::cauchy;
  double length_x = 0, length_y = 0;  // nm
  double gamma = 0;                   // rad, from the first lattice vector
  double eta = 0.5;
};
// Lattice vectors a = L1 (cos ξ, sin ξ), b = L2 (cos(ξ + angle), sin(ξ + angle)).
struct Lattice2DGeometry {
  double length_1 = 0, length_2 = 0;  // nm
  double angle = 0;                   // rad, between a and b
  double xi = 0;                      // rad, a from the x axis
  double cell_area() const;
};

struct NoInterference {};
struct RadialParacrystal {
  double peak_distance = 0;  // nm
  double damping_length = 0;  // nm, 0 = none
  double domain_size = 0;     // nm, 0 = infinite (the SSCA ignores it, as BornAgain does)
  Distribution1D pdf;
  // κ of the size–spacing correlation approximation (dimensionless, ≥ 0):
  // the distance to the next particle grows by κ (R_i − ⟨R⟩) (MixtureApproximation::ssca).
  double size_spacing_coupling = 0;
};
// A paracrystal along the in-plane direction ξ (one factor of BornAgain's
// 2D paracrystal): S = Re[(1 + p)/(1 − p)], p = φ(q₁) exp(i q₁ D − D/Λ),
// q₁ = q_x cos ξ + q_y sin ξ.
struct Paracrystal1D {
  double peak_distance = 0;
  double damping_length = 0;
  double domain_size = 0;
  double xi = 0;
  Distribution1D pdf;
};
struct Paracrystal2D {
  Lattice2DGeometry lattice;
  double damping_length = 0;
  double domain_size_1 = 0, domain_size_2 = 0;
  Distribution2D pdf_1, pdf_2;
};
struct Lattice1D {
  double length = 0;  // nm
  double xi = 0;      // rad
  Decay1D decay;
};
struct Lattice2D {
  Lattice2DGeometry lattice;
  Decay2D decay;
};
using Interference =
    std::variant<NoInterference, RadialParacrystal, Paracrystal1D, Paracrystal2D, Lattice1D, Lattice2D>;

// Mixtures of particle kinds (several particles, or size distributions):
// decoupling I = ρ [Σ w|F|² + |Σ w F|² (S − 1)]; local monodisperse
// I = ρ S Σ w|F|²; size–spacing correlation (SSCA, radial paracrystal only;
// BornAgain 1.19's SSCApproximationStrategy, Lazzari's IsGISAXS model), with
// R_i the particle's radial extension, ⟨R⟩ = Σ w R_i, κ the coupling,
// q = |q∥|, ω(q) = φ(q) exp(i q D − D/Λ) the paracrystal's FTPDF:
//   c(q) = Σ w_i exp(i κ q (R_i − ⟨R⟩)),
//   A = Σ w c_i F_i,  B = Σ w c_i F_i*,  P = Σ w_i exp(2 i κ q (R_i − ⟨R⟩)),
//   I = ρ [Σ w|F|² + e^{−q²⟨u²⟩} · 2 Re(A B ω/(1 − P ω))].
enum class MixtureApproximation { decoupling, local_monodisperse, ssca };

struct Layout {
  std::vector<ParticleSpec> particles;
  // Particles per nm². For 2D lattices and paracrystals BornAgain takes it
  // from the unit cell (1/area); the sample reader does the same.
  double density = 0;
  Interference interference;
  MixtureApproximation mixture = MixtureApproximation::decoupling;
  // Position variance ⟨u²⟩ (nm²) of the Debye–Waller-like damping
  // S → 1 + exp(−q∥² ⟨u²⟩)(S − 1) (BornAgain's PositionVariance).
  double position_variance = 0;
};

// Image of a detector with finite resolution: the ideal image convolved
// with a 2D Gaussian of σ (sigma_x along the columns, sigma_y along the
// rows), in the detector's units: pixels for flat detectors, rad for
// angular ones, nm⁻¹ for q grids (BornAgain's ResolutionFunction2DGaussian
// with ConvolutionDetectorResolution): the kernel is the Gaussian integrated
// over each pixel, as wide as the image, and the image is taken as zero
// outside (intensity near the edges leaks out).
struct DetectorResolution {
  double sigma_x = 0, sigma_y = 0;
};

struct Sample {
  Beam beam;
  Detector detector;
  std::optional<DetectorResolution> resolution;
  // Constant background per pixel, added to the scaled image before the
  // resolution convolution (BornAgain 1.19's ConstantBackground, which its
  // GISASSimulation adds before the detector resolution).
  double background = 0;
  std::vector<Layer> layers;
  std::vector<Layout> layouts;  // their intensities add
  std::string source;           // file it came from, for messages and metadata
  // Keys read under an old name ("file:line: key: deprecated, use NEW"),
  // for the front ends to show as warnings (docs/conventions.md).
  std::vector<std::string> warnings;
  // validate_sample passed on the sample as it is: read_sample and
  // parse_sample check what they read and set it, so that a plan made from
  // their sample does not check it a second time. Code that changes a
  // field afterwards sets it back to false (the plan then checks again); a
  // sample built in code starts unchecked.
  bool validated = false;
};

// Reads a sample file (docs/gisaxs.md). Every problem — syntax, unknown key or
// shape, a value out of range, a layer that does not exist — is an Error
// naming file:line and the key. Materials given by formula and density need
// the beam's wavelength (xraylib).
Sample read_sample(const std::filesystem::path& path);
Sample parse_sample(std::string_view text, const std::string& source_name);

// Checks a sample built in code (read_sample checks as it reads): throws
// Error naming the field. GisaxsPlan calls it unless sample.validated.
void validate_sample(const Sample& sample);

// ---- the computation --------------------------------------------------------

enum class Approximation { dwba, born };
Approximation parse_approximation(const std::string& name);  // "dwba", "born"
const char* to_string(Approximation a);

struct GisaxsOptions {
  Approximation approximation = Approximation::dwba;
  // device gpu: samples whose particles are all analytic shapes the GPU
  // evaluates (sphere, spheroid, cylinder, box, truncated sphere, cone;
  // unrotated, one body) with one beam run the whole per-pixel work on the
  // GPU — form factors, DWBA sums, mixture sums, S(q∥) — with the geometry
  // resident between executes; otherwise mesh form factors on the GPU
  // (hyperblocks within max_device_memory) and the rest on the CPU
  // (GisaxsPlan::device_summary says which; docs/gisaxs.md). precision
  // single: float32 form factors with float64 sums on the GPU path, the
  // float32 mesh kernels (CPU or GPU) otherwise; threads: the pixel loop's.
  DeviceOptions compute;
  // Pixels per block of work. Under a work share of P parts the plan uses
  // blocks of about pixels/(8P) (never below 64 nor above block_pixels), so
  // that round-robin dealing balances small images too.
  std::size_t block_pixels = 1024;
  // This process's part of the image (MPI runs, docs/mpi.md): the blocks of
  // pixels dealt round-robin (block b to part b mod count), which evens out
  // rows of unequal cost (below the horizon, unreachable q). execute()
  // leaves the pixels of other parts at exactly 0; GisaxsResult::reduce
  // puts the parts together.
  WorkShare share;

  // Every check of these options, once (GisaxsPlan calls it); errors name
  // the field (fail_option), which the CLI prints as its flag and Python as
  // its keyword.
  void validate() const;
};

// Geometry of every pixel, row-major: row 0 is the lowest α_f (or q_z, or
// detector row), column 0 the lowest φ_f (or q_y, or detector column).
struct PixelGrid {
  std::size_t rows = 0, cols = 0;
  std::vector<double> alpha_f, phi_f;  // rad, at the pixel centre
  std::vector<double> solid_angle;     // sr
  std::vector<double> qx, qy, qz;      // q = k_i − k_f in the ambient, nm⁻¹
  std::vector<std::uint8_t> reachable; // 0 where a q-grid pixel has no real angle
  // Axes for output: names, units, centres and edges (edges empty for the
  // flat detector, whose axes are pixel positions).
  std::string horizontal_name, vertical_name, horizontal_unit, vertical_unit;
  std::vector<double> horizontal, vertical;              // centres
  std::vector<double> horizontal_edges, vertical_edges;  // bin edges
  std::size_t size() const { return rows * cols; }
};
// Builds the pixel grid of a detector for a beam.
PixelGrid make_pixel_grid(const Detector& detector, const Beam& beam);

// The detector resolution as a separable convolution of an image (rows ×
// cols, row-major): image'[r][c] = Σ kernel_y[r − r' + centre_y]
// kernel_x[c − c' + centre_x] image[r'][c'], the terms whose kernel index
// falls outside the kernel left out (BornAgain's "linear same" FFT
// convolution with a kernel as large as the image). kernel_x[i] is the
// Gaussian integrated over a pixel at offset (centre_i − centre_mid) from the
// middle pixel mid = cols/2 (BornAgain's ConvolutionDetectorResolution);
// kernel_y alike. Empty kernels: no resolution.
struct ResolutionConvolution {
  std::vector<double> kernel_x, kernel_y;
  std::size_t centre_x = 0, centre_y = 0;
  bool empty() const { return kernel_x.empty(); }
  void apply(std::size_t rows, std::size_t cols, std::vector<double>& image) const;
};
// The kernels for a detector, its pixel grid (axis centres) and resolution.
// An axis of one pixel is left as it is (kernel {1}).
ResolutionConvolution make_resolution_convolution(const Detector& detector, const PixelGrid& pixels,
                                                  const DetectorResolution& resolution);

struct GisaxsResult {
  std::size_t rows = 0, cols = 0;
  std::vector<double> intensity;  // rows × cols, row-major (PixelGrid layout)
  PixelGrid pixels;
  std::size_t particle_kinds = 0;  // after sampling size distributions
  std::size_t computed_pixels = 0; // pixels this part computed (GisaxsOptions::share)
  double seconds = 0;              // wall time of execute()
  // Under a work share of several parts the detector resolution needs the
  // whole image: execute() leaves it here and reduce() applies it.
  ResolutionConvolution pending_resolution;

  // The whole image on every rank from each rank's part (GisaxsOptions::
  // share): every pixel was computed by one rank and left at 0 by the
  // others, so the merge is exact (the single process's numbers);
  // computed_pixels summed. A no-op on one rank.
  void reduce(const parallel::Communicator& comm);
};

class GisaxsPlan {
 public:
  GisaxsPlan(const Sample& sample, GisaxsOptions options);
  ~GisaxsPlan();
  GisaxsPlan(GisaxsPlan&&) noexcept;
  GisaxsPlan& operator=(GisaxsPlan&&) noexcept;

  // The image: Σ_beams w_b I_b + background, convolved with the detector
  // resolution (for a work share of several parts, by reduce()).
  GisaxsResult execute() const;
  // Intensities of pixels [first, first + count) into out[0..count), the
  // background included but before the detector resolution (a convolution
  // of the whole image).
  void compute_pixels(std::size_t first, std::size_t count, double* out) const;
  const PixelGrid& pixels() const;
  std::size_t particle_kinds() const;

  // What the plan computed, for tests of re-evaluation cost (counts since
  // the plan was made).
  struct Stats {
    // Pixels × particle kinds whose scattering amplitude (form factors and
    // DWBA terms) the CPU pixel loop computed; amplitudes kept from an
    // earlier execute() (set_layouts, kinds whose description did not
    // change) do not count. The analytic GPU path does not count here.
    std::size_t amplitude_pixels = 0;
    // Particle kinds (after sampling size distributions) whose amplitudes
    // an execute() computed, and those it took from the amplitudes kept
    // (summed over executes), on either path. The analytic GPU path keeps
    // them in device memory within the device budget (max_device_memory)
    // beside its tables; kinds beyond it, and every kind when no buffer
    // fits, are computed in the pixel function on every execute (counted
    // as computed).
    std::size_t kinds_computed = 0, kinds_reused = 0;
    // The kinds the last execute() computed, as indices in plan order (the
    // layouts' particles in order, each particle's sampled sizes in order).
    std::vector<std::size_t> last_computed_kinds;
    // Kinds whose mesh form-factor tables were evaluated (device gpu or
    // precision single with mesh particles; set_layouts keeps those of
    // unchanged kinds).
    std::size_t mesh_table_kinds = 0;
    // Images computed by execute_batch's batched launches, and the launches.
    std::size_t batched_images = 0, batch_launches = 0;
  };
  Stats stats() const;
  // Where the pixel work runs: "CPU", "GPU (…)", or "CPU pixel loop (why
  // not the GPU)" when device gpu was asked for a sample the GPU path does
  // not cover.
  const std::string& device_summary() const;

  // Replaces the sample's layouts (particles, size distributions,
  // interference, densities, mixtures) as a fit does between evaluations;
  // checked as validate_sample checks them. The pixel grid, the Parratt
  // fields of the layers and, on the GPU path, their device copies stay;
  // only the particle tables are rebuilt (and S(q∥) where the CPU computes
  // it). The amplitudes of every particle kind whose description did not
  // change (shape, sampled sizes, materials, layer, depth, rotation;
  // abundances may change) are kept from the last execute() after a
  // set_layouts — on the CPU pixel loop within kAmplitudeCacheBytes
  // (512 MiB), on the analytic GPU path in device memory within the device
  // budget — so the next execute() computes the changed kinds and the
  // interference and mixture sums only (Stats counts them); mesh tables of
  // unchanged kinds are kept alike. Not thread-safe against concurrent
  // execute().
  void set_layouts(std::vector<Layout> layouts);
  // The layouts of an edited sample (a SampleDocument's): its beam,
  // detector, resolution, background and layers must be the plan's, else
  // an Error names the first field that differs (those need a new plan).
  void set_layouts(const Sample& sample);

  // The images of several sets of layouts, as set_layouts(sets[k]) and
  // execute() would give them one after the other (intensity only), for a
  // fit's finite-difference Jacobian. On the analytic GPU path all sets run
  // in one launch over the resident geometry (in as few launches as the
  // device budget allows); elsewhere one after the other. The plan keeps
  // the last set's layouts.
  std::vector<std::vector<double>> execute_batch(const std::vector<std::vector<Layout>>& sets);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace nanoscatter::gisaxs
