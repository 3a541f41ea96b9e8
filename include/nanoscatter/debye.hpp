// Debye engine: orientation-averaged scattering of an atom list,
//   I(Q) = Σ_i Σ_j f_i(Q) f_j(Q) sin(Q r_ij)/(Q r_ij),  sinc(0) = 1,
// evaluated exactly (double sum over pairs) or from pair-distance histograms.
// Plan-style API: DebyePlan plan(structure, options); plan.execute(q).
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "nanoscatter/structure.hpp"
#include "nanoscatter/work_share.hpp"

namespace nanoscatter {

enum class DebyeMethod { exact, histogram };
DebyeMethod parse_debye_method(const std::string& name);  // "exact", "histogram"

// Which pair-distance histogram the histogram method computes, on either
// device (docs/debye.md): the device changes the speed, not the function.
// precise: float64 moments per bin on the CPU, two words per bin on a GPU,
// within 1e-6 of each other. fast: δ quantised to 511 dithered levels per
// pair and one word per bin on a GPU (~1.65× the precise GPU histogram's
// pairs per second at 10⁶ atoms), the CPU computing the same function
// (histogram_fast_cpu.cpp), both within 1e-4 of the precise histogram.
enum class HistogramMode { precise, fast };
HistogramMode parse_histogram_mode(const std::string& name);  // "precise", "fast"
const char* to_string(HistogramMode g);

// The histograms' default bin width Δr, Å: its error bound (docs/debye.md,
// "Histogram") keeps it within 1e-4 of exact to Q ≈ 50 Å⁻¹.
inline constexpr double kDefaultBinWidth = 1e-3;

struct DebyeOptions {
  Radiation radiation = Radiation::xray;
  FactorOptions factors;
  DebyeMethod method = DebyeMethod::exact;
  double bin_width = kDefaultBinWidth;   // Å, histogram mode
  HistogramMode histogram_mode = HistogramMode::precise;  // histogram mode on a GPU
  bool partials = false;                 // one column per species pair
  DeviceOptions compute;                 // device, precision, memory, threads, quiet
  // This process's part of the pair blocks (MPI runs, docs/mpi.md): blocks
  // are dealt to the parts by their pair counts. The result then holds this
  // part's contribution only (the self terms and Q = 0 go to part 0), and
  // the parts' intensities and partials add up to the whole.
  WorkShare share;

  // Every check of these options, once (DebyePlan calls it); errors name
  // the field (fail_option), which the CLI prints as its flag and Python as
  // its keyword.
  void validate() const;
  // compute.precision, or for automatic: single on the GPU, whose exact sums
  // are proven to 1e-5 of float64 (docs/debye.md) at three times its speed,
  // double on the CPU. The plan runs in this precision and its options()
  // hold it.
  Precision resolved_precision() const;
};

// The photon energy (keV) of the factors (FactorOptions::energy_kev) from
// the front ends' anomalous, energy and wavelength (debye's --anomalous,
// --energy, --wavelength and the same keywords): with anomalous, energy when
// given, else hc/λ of the wavelength (Å), else Error (field "anomalous");
// without it, energy as given (its old spelling, which the front ends warn
// about) or none.
std::optional<double> anomalous_energy_kev(bool anomalous, std::optional<double> energy_kev,
                                           std::optional<double> wavelength);

// The one check of a pair-histogram bin width Δr (DebyeOptions::validate,
// the histograms themselves, fit files): finite and > 0 Å; Error (field
// "bin_width") otherwise.
void validate_bin_width(double bin_width);

// A Q grid in Å⁻¹: uniform from qmin to qmax (inclusive) in n points.
std::vector<double> uniform_q_grid(double qmin, double qmax, int n);
// Q = 4π sin(θ)/λ for a uniform 2θ grid in degrees.
std::vector<double> two_theta_q_grid(double two_theta_min, double two_theta_max, int n,
                                     double wavelength);

// A Q grid as the front ends ask for it (debye's --qmin/--qmax/--qpoints or
// --two-theta-min/--two-theta-max/--wavelength, and the same keywords):
// unset fields were not given. qpoints is required; any of the 2θ fields
// makes a 2θ grid (uniform_q_grid's qmin and qmax then refused, all three
// required), else a uniform grid from qmin (default 0) to qmax (required).
// Errors name the field.
struct QGridOptions {
  std::optional<double> qmin, qmax;                   // Å⁻¹
  std::optional<int> qpoints;
  std::optional<double> two_theta_min, two_theta_max;  // degrees
  std::optional<double> wavelength;                    // Å
};
std::vector<double> make_q_grid(const QGridOptions& options);

struct DebyeResult {
  std::vector<double> q;
  std::vector<double> intensity;               // total I(Q), electrons² (X-ray), fm² (neutron), Å² (electron)
  std::vector<std::string> partial_names;      // "Co-Co", "Co-O", ...
  std::vector<std::vector<double>> partials;   // per species pair, sums to intensity
  std::size_t atom_count = 0;
  double pairs = 0;                            // atom pairs this part summed (exact method)
  double seconds = 0;                          // wall time of execute()

  // The whole result on every rank from each rank's part (DebyeOptions::
  // share): intensities and partials added in rank order in float64 (the
  // documented order), pairs summed. A no-op on one rank.
  void reduce(const parallel::Communicator& comm);
};

// A plan that can change (fits, scans): set_factors and set_radiation keep
// the pair sums of the last Q grid, so re-executing on that grid costs only
// the factors (a few ms); set_structure re-makes everything that depends on
// the atoms. stats() counts the costly steps (tests hold the plan to this).
class DebyePlan {
 public:
  DebyePlan(const Structure& structure, DebyeOptions options);
  ~DebyePlan();
  DebyePlan(DebyePlan&&) noexcept;
  DebyePlan& operator=(DebyePlan&&) noexcept;

  DebyeResult execute(const std::vector<double>& q) const;

  void set_structure(const Structure& structure);
  void set_factors(const FactorOptions& factors);  // anomalous energy, Debye–Waller on/off
  void set_radiation(Radiation radiation);
  const DebyeOptions& options() const;

  struct Stats {
    int pair_sum_runs = 0;     // Q grids whose pair sums were computed
    int histogram_builds = 0;  // structures histogrammed (histogram mode)
  };
  Stats stats() const;

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  double sum_pairs(const std::vector<double>& q, const std::vector<double>& weight,
                   std::vector<std::vector<double>>& sums) const;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nanoscatter
