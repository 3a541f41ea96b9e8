// Discrete dipole approximation (DDA), following ADDA's conventions
// (Yurkin & Hoekstra, JQSRT 112, 2234 (2011); ADDA manual): a particle is a
// set of N point dipoles on a cubic grid of spacing d; for each incident
// polarisation the 3N×3N complex-symmetric system
//     (I + S D S) x = S E_inc,   S = α^{1/2},  D = −G (point-dipole Green tensor),
//     P = S x
// is solved iteratively; the matrix–vector product is a 3D convolution done by
// FFT on the zero-padded grid. Lengths are in any one unit (λ's unit); the
// incident plane wave travels along +z with unit amplitude, X polarisation
// along x and Y along y.
//
// Plan-style API: DdaPlan plan(options); DdaResult r = plan.execute();
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "nanoscatter/device.hpp"

namespace nanoscatter {

// ---- geometry ----------------------------------------------------------------

enum class DdaShapeKind { sphere, ellipsoid, cylinder, box, coated, capsule, file };
DdaShapeKind parse_dda_shape(const std::string& name);  // "sphere", ..., "read"/"file"
const char* to_string(DdaShapeKind k);

struct DdaShape {
  DdaShapeKind kind = DdaShapeKind::sphere;
  // ADDA's shape parameters: ellipsoid y/x z/x; cylinder h/d; box [y/x z/x];
  // coated d_in/d [x/d y/d z/d]; capsule h/d; sphere none.
  std::vector<double> params;
  std::filesystem::path file;  // kind == file: ADDA shape file
};

// A dipole set on the grid: integer positions in [0, box), a material index
// (0-based domain) per dipole, and ADDA's symmetry flags of the shape.
struct DdaGeometry {
  std::array<int, 3> box{0, 0, 0};
  std::vector<std::array<std::uint16_t, 3>> position;  // grid indices i, j, k
  std::vector<std::uint8_t> material;                 // domain per dipole, < materials
  int materials = 1;                                  // number of domains the shape defines
  double volume_ratio = 0;  // particle volume / (box_x d)³ when known analytically, else 0
  bool sym_x = false, sym_y = false, sym_z = false;  // mirror symmetry x→−x, ...
  bool sym_r = false;                                // 90° rotation about z
  std::string description;                           // "sphere; diameter:" style text
  std::size_t size() const { return position.size(); }
};

// Built-in shape on a grid of `grid_x` dipoles along x (ADDA make_particle.c:
// dipole centres at (i − (box−1)/2)/box_x in units of the particle's x size;
// box_y, box_z = round(aspect · box_x)). Throws Error naming the parameter at
// fault. grid_yz = {0,0}: from the aspect ratios.
DdaGeometry make_dda_shape(const DdaShape& shape, int grid_x, std::array<int, 2> grid_yz = {0, 0});

// ADDA shape files: lines "x y z" (one domain) or, after a line "Nmat=n",
// "x y z dom" (dom from 1); '#' lines at the top are comments. Errors name the
// file, the line and the field. Positions are shifted so the minima are 0.
DdaGeometry read_adda_shape_file(const std::filesystem::path& path);
// Writes the ADDA text format ("x y z", or "Nmat=" and "x y z dom" when more
// than one domain is present) through AtomicOutput.
void write_adda_shape_file(const std::filesystem::path& path, const DdaGeometry& g,
                           const std::string& shape_name);

// ---- options -------------------------------------------------------------------

enum class DdaPolarizability { ldr, cm, rr };
enum class DdaSolver { qmr_cs, bicg_cs, bicgstab, cgnr };
DdaPolarizability parse_dda_polarizability(const std::string& name);  // "ldr", "cm", "rr"
DdaSolver parse_dda_solver(const std::string& name);                  // "qmr", "bicg", "bicgstab", "cgnr"
const char* to_string(DdaPolarizability p);
const char* to_string(DdaSolver s);

struct DdaOptions {
  DdaShape shape;
  int grid = 0;                    // dipoles along x; 0: ADDA's default (16, or from size and dpl)
  std::array<int, 2> grid_yz{0, 0};  // explicit box y, z (0: from the shape)
  double size = 0;                 // particle size along x (diameter); 0: unset
  double eq_rad = 0;               // volume-equivalent radius; 0: unset
  double dpl = 0;                  // dipoles per wavelength; 0: unset
  double lambda = 6.283185307179586;  // wavelength (default 2π, so k = 1)
  std::vector<std::complex<double>> m{{1.5, 0.0}};  // one index per domain (Im ≥ 0)
  bool volume_correction = true;   // ADDA default: dipole size from the exact particle volume
  DdaPolarizability polarizability = DdaPolarizability::ldr;
  DdaSolver solver = DdaSolver::qmr_cs;
  double eps = 1e-5;               // stop when |b − A x|/|b| ≤ eps (ADDA's relative residual; the true
                                   // residual, with the float64 product, in either precision)
  int maxiter = 0;                 // 0: ADDA's default 3·box volume
  bool use_symmetry = true;        // solve one polarisation when the shape allows (ADDA symR)
  // dual: float64 throughout. single: mixed precision, float32 FFT products
  // inside a float64 iteration, converged on the float64 residual (docs/dda.md).
  Precision precision = Precision::dual;
  Device device = Device::cpu;
  int threads = 0;                 // OpenMP threads, 0 = all
  std::size_t max_device_memory = 0;  // bytes the GPU path may use, 0 = from free memory
  // Angle-resolved output
  bool mueller = false;            // Mueller matrix in the yz scattering plane (ADDA default plane)
  int ntheta = 0;                  // θ points over 0..180°; 0: ADDA's heuristic from the box volume
  int grid_nphi = 0;               // > 0: also a (θ, φ) grid, φ in [0, 360) with this many points
  // Integral quantities by angular quadrature (ADDA -Csca / -asym)
  bool csca = false;
  bool asym = false;
  bool store_fields = false;       // keep internal fields and polarisations in the result
  bool quiet = true;               // iteration log on stderr
};

// ---- results -------------------------------------------------------------------

struct DdaPolarizationResult {
  char name = 'Y';                 // 'Y' or 'X' (ADDA's file suffix)
  bool from_symmetry = false;      // obtained from the other polarisation by a 90° rotation
  double cext = 0, cabs = 0, qext = 0, qabs = 0;
  double csca = 0, qsca = 0;       // Cext − Cabs (exact for the converged DDA system)
  bool integrated = false;         // csca_int, g filled by quadrature
  double csca_int = 0, qsca_int = 0;
  std::array<double, 3> g{0, 0, 0};  // asymmetry vector <n>/Csca (g = g[2] along +z)
  int iterations = 0;
  bool converged = false;
  double residual = 0;             // final true |b − A x|/|b| (float64 product)
  std::vector<double> residual_history;  // |r_k|/|b| of the iteration's own residual, k = 0..iterations
  int residual_checks = 0;         // true residuals computed at the convergence test
  int restarts = 0;                // refinement restarts from the true residual (single precision)
  std::string initial_field;       // "x_0 = 0" or "x_0 = E_inc" (ADDA's automatic choice)
  std::vector<std::complex<double>> polarization;    // 3 per dipole (store_fields)
  std::vector<std::complex<double>> internal_field;  // E = P/(V χ) (store_fields)
};

struct DdaMuellerRow {
  double theta = 0, phi = 0;       // degrees
  std::array<double, 16> s{};      // s11 s12 ... s44
};

struct DdaMemoryEstimate {
  std::size_t interaction_bytes = 0;  // FFT of the interaction tensor
  std::size_t fft_bytes = 0;          // padded work arrays of one matrix–vector product
  std::size_t vector_bytes = 0;       // solver vectors
  std::size_t total() const { return interaction_bytes + fft_bytes + vector_bytes; }
};

struct DdaResult {
  std::array<int, 3> box{0, 0, 0};
  std::array<int, 3> fft_grid{0, 0, 0};
  std::size_t dipoles = 0;         // non-void dipoles of the shape
  std::size_t solver_dipoles = 0;  // those with m ≠ 1 (in the solver vectors)
  double dipole_size = 0, dpl = 0, a_eq = 0, size_x = 0, ka_eq = 0;
  double lambda = 0;
  std::vector<std::complex<double>> polarizability;  // per domain (for the Y run)
  std::vector<DdaPolarizationResult> runs;          // Y first, then X
  std::vector<DdaMuellerRow> mueller;               // yz plane, θ grid
  std::vector<DdaMuellerRow> mueller_grid;          // (θ, φ) grid
  std::vector<std::array<double, 3>> dipole_coords; // centred coordinates (store_fields)
  DdaMemoryEstimate memory;
  bool converged = true;           // every run converged
  double seconds_init = 0, seconds_solve = 0, seconds_total = 0;
  int matvecs = 0;
  double seconds_iterations = 0;   // the iterative solver alone (no transfers, no setup of b)
  double seconds_per_matvec = 0;   // seconds_iterations / matvecs (vector operations included)
  std::string description;         // shape line of the log
  std::vector<std::string> log;    // ADDA-style log lines
};

// Everything ADDA decides before solving: the dipole set, dipole size and
// grids. Public so that `--prognosis` and tests can inspect it cheaply.
struct DdaSetup {
  DdaGeometry geometry;
  double dipole_size = 0, dpl = 0, size_x = 0, a_eq = 0;
  std::array<int, 3> fft_grid{0, 0, 0};
  int maxiter = 0;
  int ntheta = 0;
};
DdaSetup make_dda_setup(const DdaOptions& options);
DdaMemoryEstimate estimate_dda_memory(const DdaSetup& setup, const DdaOptions& options);

// One incident polarisation solved: the expensive part of execute(), and
// independent of the other polarisation (an MPI run solves them on
// different ranks, docs/mpi.md).
struct DdaSolution {
  DdaPolarizationResult run;                       // name, iterations, residuals (cross sections come in finish())
  std::vector<std::complex<double>> polarization;  // P = S x at the solver dipoles, 3 per dipole
  std::string warning;                             // log line when the solver did not converge
  double seconds_iterations = 0;
  int matvecs = 0;
};

class DdaPlan {
 public:
  explicit DdaPlan(DdaOptions options);
  ~DdaPlan();
  DdaPlan(DdaPlan&&) noexcept;
  DdaPlan& operator=(DdaPlan&&) noexcept;
  const DdaSetup& setup() const;
  // Solves, computes the observables. A run that does not converge within
  // maxiter leaves converged = false (partial results); it does not throw.
  // The same as finish() of solve() for each of polarizations().
  DdaResult execute();
  // The polarisations to solve: "Y", or "YX" unless the particle's 90°
  // rotation symmetry gives X from Y (use_symmetry).
  std::string polarizations() const;
  DdaSolution solve(char polarization);  // 'Y' or 'X'
  // Observables from the solutions of every polarisation of polarizations()
  // (in any order); seconds_solve: wall time the solutions took.
  DdaResult finish(std::vector<DdaSolution> solutions, double seconds_solve);
  // One matrix–vector product on a random vector; returns seconds per product
  // averaged over `repeats` (benchmarks).
  double time_matvec(int repeats);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// ADDA-compatible files in `dir`: CrossSec-Y, CrossSec-X, mueller (when
// computed), mueller_scatgrid (θ, φ grid), IntField-*/DipPol-* (store_fields),
// log. Each through AtomicOutput.
void write_adda_outputs(const std::filesystem::path& dir, const DdaResult& result,
                        const DdaOptions& options, const std::string& command_line);

}  // namespace nanoscatter
