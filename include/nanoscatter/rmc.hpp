// Reverse Monte Carlo (RMC) fit of a 2D particle arrangement to a measured
// small-angle image (issue 8).
//
// Model: an N×N periodic lattice with occupancy A[x][y] ∈ {0, 1}; a fixed
// number of particles n = round(loading·N²). Model intensity I = |F|² with
//   F[k][l] = Σ_{x,y} A[x][y] exp(−2πi (k x + l y)/N)          (FFT2 of A)
// (row index x ↔ k, column index y ↔ l). A move takes one particle from an
// occupied site to an empty one; F changes by two rank-1 terms, so a trial
// costs O(N²) instead of an FFT. The fit minimises, over unmasked pixels,
//   χ²(s) = Σ (P − s·I)²,
// and reports the relative value χ²_rel = χ²(s)/Σ P². The scale s
// (RmcOptions::chi2_scale) is
//   free:     the best s = Σ P I / Σ I² for each state, so χ²_rel ∈ [0, 1]
//             (1 − cos² of the angle between P and I): the pattern's shape only;
//   absolute: s = 1, the target on the model's own absolute scale, I = |F|²
//             with F the plain (unnormalised) FFT of the 0/1 occupancy, so
//             I(0) = (c N²)² and Σ_q I(q) = c N⁴ (Parseval) for loading c;
//             a target made by rmc_model_intensity(A_true) matches with s = 1;
//   fixed:    s = RmcOptions::scale, the data's calibration into those units.
// With the absolute or a fixed scale the intensity level depends on the
// loading (Σ_{q≠0} I = N⁴ c(1 − c)), so a loading scan finds the loading;
// with the free scale χ² falls monotonically with loading. Temperatures are
// in units of χ²_rel. The q = 0 pixel is masked unless keep_zero_q.
//
// Image convention ("centred"): the zero-q pixel of an M×M image sits at
// row M/2, column M/2 (integer division; numpy.fft.fftshift's convention),
// so F[0][0] pairs with the image's centre pixel. Images in FFT order (q = 0
// at [0][0]) are accepted with TargetLayout::fft and are fftshifted first.
//
// Plan-style API: RmcPlan plan(target, options); plan.execute().
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/work_share.hpp"

namespace nanoscatter {

// A row-major 2D image of doubles.
struct Image2D {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> data;  // data[r * cols + c]
  double at(std::size_t r, std::size_t c) const { return data[r * cols + c]; }
};

// Reads a 2D image: any detector format read_detector_image knows (TIFF,
// CBF, EDF, HDF5/NeXus "file.h5:/path/to/dataset" or "file.h5", frame 0;
// detector_image.hpp), anything else as a whitespace-separated text matrix
// (read_text_matrix). Errors name the file (and dataset).
Image2D read_image(const std::string& spec);
// Whether this build reads TIFF (always: libtiff is required).
bool tiff_supported();

enum class TargetLayout { centred, fft };  // where q = 0 sits in the image
enum class Resample { crop, rebin };       // how a larger image maps onto the model size
TargetLayout parse_target_layout(const std::string& name);  // "centred" (or "centered"), "fft"
Resample parse_resample(const std::string& name);           // "crop", "rebin"

struct TargetOptions {
  // N; 0: the (square) image's size. Errors name it "tile", as the CLI
  // flag and the Python keyword do.
  std::size_t model_size = 0;
  bool crop_to_square = false;     // crop a non-square image to its central square
  TargetLayout layout = TargetLayout::centred;
  // A larger image becomes N×N by cropping the central N×N window (keeps
  // the q spacing, cuts q_max) or by averaging r×r blocks when the size is
  // r·N (keeps q_max, coarsens the q spacing).
  Resample resample = Resample::crop;
};

// The image the model is fitted to: N×N, centred layout, NaN where masked.
struct RmcTarget {
  std::size_t size = 0;
  std::vector<double> intensity;  // [row * size + col]
  std::string source;             // where it came from (for output headers)
  std::size_t used_pixels() const;
};

// Builds the target from an image and an optional mask of the image's shape
// (nonzero = use the pixel; NaN pixels of the image are masked too). Errors
// (fail_at naming `file` and `field`): non-square image without
// crop_to_square, mask of another shape, image smaller than the model,
// size not a multiple for rebin, infinite pixels, all used pixels zero.
RmcTarget make_rmc_target(Image2D image, const Image2D* mask, const TargetOptions& options,
                          const std::string& image_name = "", const std::string& mask_name = "");
// read_image + make_rmc_target. `mask_spec` may be empty.
RmcTarget load_rmc_target(const std::string& target_spec, const std::string& mask_spec,
                          const TargetOptions& options);

enum class CoolingSchedule { fixed, exponential, linear };
// How the scale s of χ²(s) = Σ (P − s·I)² is set (see the top of this file).
enum class Chi2Scale { free, absolute, fixed };
Chi2Scale parse_chi2_scale(const std::string& name);  // "free", "absolute", "fixed"
const char* to_string(Chi2Scale scale);
// A loading scan from text "start:stop:step" (stop included when it lies on
// the grid, to 1e-9 of a step): the loadings start, start + step, … ≤ stop.
// Errors name "loading_scan"; RmcOptions::validate checks the values.
std::vector<double> parse_loading_scan(const std::string& text);
CoolingSchedule parse_cooling_schedule(const std::string& name);  // "fixed", "exponential", "linear"
// RmcOptions::temperature from text: a number, or "auto" (unset).
std::optional<double> parse_rmc_temperature(const std::string& text);
const char* to_string(CoolingSchedule schedule);

struct RmcOptions {
  std::size_t tiles = 1;                 // independent replicas (per loading of a scan)
  // Fraction of occupied sites: one value, or one per tile. Required unless
  // loading_scan is given (then it must be empty).
  std::vector<double> loading;
  // Loading scan: every loading in this list (at least 3, each in (0, 1))
  // is fitted by `tiles` independent tiles of one plan, so the plan runs
  // tiles·loading_scan.size() tiles (tile t has loading
  // loading_scan[t / tiles]); rmc_loading_scan summarises the result.
  std::vector<double> loading_scan;
  Chi2Scale chi2_scale = Chi2Scale::free;
  double scale = 1;                      // s for chi2_scale = fixed (> 0)
  // The q = 0 pixel (the image's centre) is masked unless this is set: it
  // holds the forward beam in data, and (c N²)² in the model, which would
  // dominate an absolute χ².
  bool keep_zero_q = false;
  std::uint64_t steps = 100000;          // trial moves per tile
  std::uint64_t seed = 1;
  // Moves go to an empty site within this Euclidean distance (lattice
  // units, periodic wrap); 0: to any empty site.
  double max_distance = 0;
  CoolingSchedule schedule = CoolingSchedule::exponential;
  // Initial temperature T0 (units of χ²_rel); unset: from a short probe of
  // `probe_moves` trial moves per tile, so that the expected acceptance
  // ratio at T0 is `target_acceptance` (per tile).
  std::optional<double> temperature;
  // 0.8: about half the trials from a random start go downhill, so lower
  // targets often give T0 = 0 (a quench); 0.8 melts the start first.
  double target_acceptance = 0.8;
  std::uint64_t probe_moves = 256;
  // Exponential: T(m) = T0·r^(m/(M−1)); linear: T0·(1 + (r − 1)·m/(M−1));
  // r = final_ratio = T_final/T0 (exponential needs r > 0).
  double final_ratio = 1e-3;
  // Multi-resolution start: fit models of size N/2^L, …, N/2 to the central
  // low-q crop of the target first (`multires_steps` moves per tile each;
  // 0: steps/4), growing the occupancy by interpolation at fixed loading.
  // Errors name it "multires", as the CLI flag and the Python keyword do.
  int multires_levels = 0;
  std::uint64_t multires_steps = 0;
  // F is recomputed exactly (FFT of the occupancy) every this many moves, so
  // that float32 rank-1 updates cannot drift; 0: never.
  std::uint64_t refresh_interval = 20000;
  std::uint64_t trace_interval = 0;      // moves between χ² trace points; 0: about 1000 points
  // GPU: thread blocks per tile (1–8), 0 = from the SM count. Errors name
  // it "cluster", as the CLI flag and the Python keyword do.
  int cluster_size = 0;
  // Device, threads (CPU: OpenMP threads over tiles), max_device_memory
  // (0: half of the free GPU memory) and quiet. rmc has no precision
  // choice: the CPU path runs in float64, the CUDA path in float32 (with
  // exact float64 refreshes), so compute.precision is not used.
  DeviceOptions compute;
  // This process's part of the tiles (MPI runs, docs/mpi.md): the
  // contiguous run share.range(tiles). Tiles are independent and draw their
  // random numbers by their global index, so each tile comes out as in a
  // run of all tiles (on the CPU; on a GPU when the cluster size is given).
  // RmcResult::tiles and trace then hold this run of tiles only (first_tile
  // says where it starts); a part with no tiles returns none.
  WorkShare share;

  // Every check of these options alone, once (RmcPlan calls it); errors
  // name the field (fail_option), which the CLI prints as its flag and
  // Python as its keyword. The checks that need the model size (particle
  // counts, multi-resolution levels) are the plan's.
  void validate() const;
  // The fixed scale of χ² (absolute: 1, fixed: scale), 0 for the free scale.
  double fixed_scale() const;
};

struct RmcTileResult {
  double loading = 0;                    // requested
  std::size_t particles = 0;             // n = round(loading·N²)
  std::vector<std::uint8_t> occupancy;   // N×N, [x * N + y]
  double temperature = 0;                // T0 used (final level)
  // Acceptance over the last tenth of the final level's moves (the
  // multi-resolution rule starts each level from its predecessor's).
  double final_acceptance = 0;
  double chi2_initial = 0;               // χ²_rel of the start (after any multi-resolution stage)
  double chi2_final = 0;                 // χ²_rel at the end (recomputed exactly)
  double scale = 0;                      // s at the end (fitted, or the fixed one)
  double chi2_free = 0;                  // free-scale χ²_rel of the final occupancy (for comparison)
  std::uint64_t tried = 0;               // trial moves
  std::uint64_t accepted = 0;
  std::uint64_t blocked = 0;             // trials whose target site was occupied (max_distance)
};

struct RmcResult {
  std::size_t size = 0;                  // N
  std::size_t first_tile = 0;            // global index of tiles[0] (RmcOptions::share)
  Device device = Device::cpu;
  std::vector<RmcTileResult> tiles;
  std::vector<std::uint64_t> trace_moves;       // move count at each trace point (0 = start)
  std::vector<std::vector<double>> trace;       // [tile][point] χ²_rel
  double seconds = 0;                           // wall time of execute()
  double move_seconds = 0;                      // of which spent in trial moves (final level)
  int cluster_size = 1;                         // GPU blocks per tile used

  // The whole result on every rank from each rank's run of tiles
  // (RmcOptions::share): the tiles and their traces in rank order, which is
  // the order of their global indices (first_tile becomes 0); the trace's
  // move counts, times, device and cluster size are rank 0's. A no-op on
  // one rank.
  void reduce(const parallel::Communicator& comm);
};

class RmcPlan {
 public:
  // Checks the options (RmcOptions::validate) and them against the
  // target's size; errors name the option's field (e.g. "loading"). Masks
  // the target's q = 0 pixel unless options.keep_zero_q (noted once on
  // stderr unless quiet). A loading scan is expanded here: options() then
  // has tiles·L tiles with one loading each.
  RmcPlan(RmcTarget target, RmcOptions options);
  ~RmcPlan();
  RmcPlan(RmcPlan&&) noexcept;
  RmcPlan& operator=(RmcPlan&&) noexcept;

  // Start tile t from this N×N occupancy instead of a random one (its count
  // of occupied sites becomes that tile's particle count). One per tile.
  void set_initial_occupancy(std::vector<std::vector<std::uint8_t>> occupancy);
  RmcResult execute() const;
  const RmcTarget& target() const;
  const RmcOptions& options() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Summary of a loading scan (RmcOptions::loading_scan) from the whole
// result (after RmcResult::reduce): per loading the lowest final χ² of its
// tiles (in the run's chi2_scale), the grid minimum, and the vertex of the
// parabola least-squares fitted to that point and up to two grid neighbours
// on each side (kept between its two neighbours); at an end of the grid, or
// when the parabola does not open upwards, the refined loading is the grid
// minimum and `refined` is false.
struct RmcLoadingScan {
  std::vector<double> loading;
  std::vector<double> chi2;       // lowest χ²_rel of the loading's tiles (chi2_scale)
  std::vector<double> chi2_free;  // the same tiles' free-scale χ²_rel
  double best_loading = 0;        // grid minimum
  double best_chi2 = 0;
  double refined_loading = 0;     // parabola minimum (or best_loading)
  bool refined = false;
};
RmcLoadingScan rmc_loading_scan(const RmcResult& result, const RmcOptions& options);

// An occupancy image (read_image, or an array) as the start of every tile:
// it must be N×N (N = `size`, the model's), hold only 0 and 1, and have
// both kinds of site. When options.loading is empty it becomes the image's
// loading; otherwise round(loading·N²) must equal the image's count.
// Errors name the file and the option field "initial_model"; a loading
// scan cannot start from one model.
std::vector<std::uint8_t> rmc_initial_model(const Image2D& image, std::size_t size, RmcOptions& options,
                                            const std::string& name = "");

// ---- analysis of a fitted structure (float64, FFTW) -------------------------

// s·|FFT2(A)|² of an N×N occupancy, in the centred layout.
std::vector<double> rmc_model_intensity(const std::vector<std::uint8_t>& occupancy, std::size_t n,
                                        double scale = 1.0);
// χ²_rel of a model intensity (centred) against a target (NaN = masked),
// with the best scale (fixed_scale ≤ 0) or the given one; brute force over
// the full image.
double rmc_relative_chi2(const RmcTarget& target, const std::vector<double>& model_intensity,
                         double fixed_scale = 0);

// Radial average of a centred N×N image over rings |q| ∈ [b − ½, b + ½)
// (pixel units, b = 0 … N/2); NaN pixels are left out, empty rings are NaN.
std::vector<double> radial_average(const std::vector<double>& image, std::size_t n);

// Pair-correlation function of an occupancy on the periodic lattice:
// g(r) = ⟨number of particles at distance r from a particle⟩ / (ρ · sites at
// distance r), in rings r ∈ [b − ½, b + ½), b = 1 … N/2 (lattice units);
// → 1 for an uncorrelated arrangement.
struct PairCorrelation {
  std::vector<double> r;
  std::vector<double> g;
};
PairCorrelation pair_correlation(const std::vector<std::uint8_t>& occupancy, std::size_t n);

}  // namespace nanoscatter
