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
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/run_record.hpp"

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

// The shape as the user gives it (ADDA's -shape): `tokens` "sphere",
// "ellipsoid 0.8 1.3", "read FILE" (empty: a sphere), or a shape file
// instead (`shape_file`, not with tokens). Errors name "shape" (a parameter
// that is not a number, "read" without one file) or "shape_file" (both given).
DdaShape parse_dda_shape_spec(const std::vector<std::string>& tokens, const std::string& shape_file);

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
// fault. grid_yz = {0,0}: from the aspect ratios. before_scan, when given,
// sees the box before the dipoles are made (a caller's memory check: the
// scan of a large box takes minutes).
DdaGeometry make_dda_shape(const DdaShape& shape, int grid_x, std::array<int, 2> grid_yz = {0, 0},
                           const std::function<void(const std::array<int, 3>&)>& before_scan = {});

// ADDA shape files: lines "x y z" (one domain) or, after a line "Nmat=n",
// "x y z dom" (dom from 1); '#' lines at the top are comments. Errors name the
// file, the line and the field. Positions are shifted so the minima are 0.
DdaGeometry read_adda_shape_file(const std::filesystem::path& path);
// Writes the ADDA text format ("x y z", or "Nmat=" and "x y z dom" when more
// than one domain is present) through AtomicOutput.
// The '#' comment lines at the top carry the run's record (command, version).
void write_adda_shape_file(const std::filesystem::path& path, const DdaGeometry& g,
                           const std::string& shape_name, const RunRecord& record);

// ---- options -------------------------------------------------------------------

enum class DdaPolarizability { ldr, cm, rr };
enum class DdaSolver { qmr_cs, bicg_cs, bicgstab, cgnr };
DdaPolarizability parse_dda_polarizability(const std::string& name);  // "ldr", "cm", "rr"
DdaSolver parse_dda_solver(const std::string& name);                  // "qmr", "bicg", "bicgstab", "cgnr"
bool parse_dda_symmetry(const std::string& name);  // "auto" (use the particle's symmetry) or "no"
const char* to_string(DdaPolarizability p);
const char* to_string(DdaSolver s);

// Options of a DDA run, named as ADDA's (and the CLI's flags and Python's
// keywords). Fields whose flag has another name say so: errors name the
// flag's name (pol, iter, sym), which the CLI prints as --pol and Python
// takes as the keyword pol.
struct DdaOptions {
  DdaShape shape;
  // Dipoles along x, or along x, y, z (ADDA -grid); empty: ADDA's default
  // (16, or from size and dpl); y, z from the shape's aspect ratios when
  // only x is given.
  std::vector<int> grid;
  std::optional<double> size;      // particle size along x (diameter)
  std::optional<double> eq_rad;    // volume-equivalent radius (not with size)
  std::optional<double> dpl;       // dipoles per wavelength; default 10|m|
  double lambda = 6.283185307179586;  // wavelength (default 2π, so k = 1)
  std::vector<std::complex<double>> m{{1.5, 0.0}};  // one index per domain (Im ≥ 0)
  bool volume_correction = true;   // ADDA default: dipole size from the exact particle volume
  DdaPolarizability polarizability = DdaPolarizability::ldr;  // errors: "pol"
  DdaSolver solver = DdaSolver::qmr_cs;                       // errors: "iter"
  double eps = 1e-5;               // stop when |b − A x|/|b| ≤ eps (ADDA's relative residual; the true
                                   // residual, with the float64 product, in either precision)
  std::optional<int> maxiter;      // default: ADDA's 3·box volume
  bool use_symmetry = true;        // solve one polarisation when the shape allows (ADDA symR); errors: "sym"
  // A polarisation whose solve does not converge is reported either way
  // (converged = false, DdaPolarizationResult::failure, the log); the front
  // ends treat it as an error (CLI exit status 1, Python ConvergenceError)
  // unless this is set, and then as a warning (docs/dda.md).
  bool accept_unconverged = false;
  // device, threads, max_device_memory (0: half of the free GPU memory),
  // quiet (the iteration log on stderr), and precision: double is float64
  // throughout; single is mixed precision, float32 FFT products inside a
  // float64 iteration, converged on the float64 residual (docs/dda.md).
  DeviceOptions compute;
  // Angle-resolved output
  bool mueller = false;            // Mueller matrix in the yz scattering plane (ADDA default plane)
  int ntheta = 0;                  // θ points over 0..180°; 0: ADDA's heuristic from the box volume
  int grid_phi = 0;                // > 0: also a (θ, φ) grid, φ in [0, 360) with this many points
  // Integral quantities by angular quadrature (ADDA -Csca / -asym; asym
  // implies csca)
  bool csca = false;
  bool asym = false;
  bool store_fields = false;       // keep internal fields and polarisations in the result

  // Every check of these options, once (make_dda_setup, hence the plan,
  // calls it); errors name the field (fail_option). The shape's parameters
  // are checked where the shape is built (make_dda_shape).
  void validate() const;
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
  // Not converged: one line naming the polarisation, solver, iterations,
  // residual and cause (the front ends' warning); "" when converged.
  std::string failure;
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
DdaSetup make_dda_setup(const DdaOptions& options);  // validates the options first
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
  const DdaOptions& options() const;
  // Solves, computes the observables. A run that does not converge within
  // maxiter leaves converged = false (partial results); it does not throw.
  // The same as finish() of solve() for each of polarizations().
  DdaResult execute();
  // The same over the ranks of `comm` (docs/mpi.md): the i-th of
  // polarizations() is solved on rank i mod size, the solutions go to every
  // rank, and every rank finishes the whole result (equal to execute()'s).
  // A collective; under mpirun each rank reports its solve time and share
  // on stderr (rank 0, unless quiet).
  DdaResult execute(const parallel::Communicator& comm);
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

}  // namespace nanoscatter
