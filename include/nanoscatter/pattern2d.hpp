// pattern2d engine: the kinematic diffraction pattern of an oriented particle
// on a 2D detector,
//   A(q) = Σ_j w_j f_j(|q|) T_j(|q|) exp(i q·r_j),
// with q on the Ewald sphere of the incident beam (or, optionally, in the
// detector plane: the small-angle limit without curvature).
//
// Intensity: the expected intensity over random site occupations (weights
// w_j) and independent Gaussian thermal displacements (T_j = exp(−B_j s²),
// s = |q|/4π), as in the Debye engine (debye.hpp, api.cpp there):
//   I(q) = |A(q)|² + Σ_j |f_j|² (w_j − w_j² T_j²).
// The second term is the flat "self" background (thermal diffuse and
// occupational disorder); it vanishes for fully occupied, static atoms, and
// with it the orientation average of I(q) equals the Debye I(Q). The
// optional complex amplitude is the average amplitude A(q).
//
// Frames: the detector frame has the incident beam along +z, detector x and
// y across it. The lab frame is the detector frame rotated by the minimal
// rotation that takes +z onto `beam_direction` (the identity for the default
// +z beam). The sample is rotated actively by `orientation` (atoms at R r in
// the lab frame), so A is evaluated at Rᵀ q.
//
// Plan-style API: Pattern2DPlan plan(structure, options) groups and packs
// the atoms once; plan.execute(geometry) evaluates one detector image.
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "nanoscatter/structure.hpp"
#include "nanoscatter/vec3.hpp"
#include "nanoscatter/work_share.hpp"

namespace nanoscatter {

// Polar grid: |q|_i = qmax·i/(nq − 1), i = 0..nq−1 (nq = 1: the single ring
// |q| = qmax), and azimuths φ_j = 360°·j/nphi, j = 0..nphi−1, measured from
// detector x towards detector y. With curvature a pixel (|q|, φ) is the
// point of the Ewald sphere with scattering angle 2θ = 2 asin(|q|/2k) and
// azimuth φ:  q = k (sin 2θ cos φ, sin 2θ sin φ, cos 2θ − 1).
struct PolarDetector {
  double qmax = 0;  // Å⁻¹, at most 2k = 4π/λ
  int nq = 0;
  int nphi = 0;
};

// Flat detector perpendicular to the beam at `distance` downstream of the
// sample. Pixel (ix, iy) has its centre at X = (ix − cx)·pixel_size,
// Y = (iy − cy)·pixel_size in the detector plane; (cx, cy) is the beam
// centre in pixel units, by default the middle of the detector
// ((nx − 1)/2, (ny − 1)/2). The scattered direction is (X, Y, distance)
// normalised, and q = k (u − ẑ). Distance and pixel size share one unit
// (mm on the command line); only their ratio matters.
struct FlatDetector {
  double distance = 0;
  double pixel_size = 0;
  int nx = 0;
  int ny = 0;
  std::optional<std::array<double, 2>> beam_center;  // (cx, cy), pixels
};

using Detector = std::variant<PolarDetector, FlatDetector>;

struct Pattern2DGeometry {
  double wavelength = 0;                 // Å; k = 2π/λ
  Vec3 beam_direction{0, 0, 1};          // incident beam (lab frame), any non-zero length
  Mat3 orientation = Mat3::identity();   // active sample rotation (proper rotation)
  // false: drop the Ewald-sphere curvature (small-angle limit): a pixel of
  // scattering vector magnitude |q| and azimuth φ gets q = |q| (cos φ,
  // sin φ, 0) in the detector frame. |q| itself is unchanged (2k sin θ).
  bool curvature = true;
  Detector detector = PolarDetector{};
};

// Throws Error naming the field at fault (wavelength, qmax, nq, nphi,
// distance, pixel_size, nx, ny, direct_beam, beam, rotation) for values the
// geometry cannot use: non-positive or non-finite wavelength, qmax ≤ 0 or
// beyond 2k (off the Ewald sphere), fewer than one q or φ point, and so on.
void validate_geometry(const Pattern2DGeometry& geometry);

// The geometry as the front ends receive it, value by value, any of them
// left out: the fields are the CLI's flags (--pixel-size) and Python's
// keywords (pixel_size). make_pattern2d_geometry applies the rules of which
// values go together (wavelength required; Euler angles or a rotation
// matrix, not both; the polar detector's qmax, nq, nphi or, with flat, the
// flat one's distance, pixel_size, nx, ny and optional direct_beam), then
// validate_geometry; every message names a field.
struct Pattern2DGeometryOptions {
  std::optional<double> wavelength;  // Å
  std::vector<double> euler_zyz;     // ZYZ Euler angles α β γ (degrees); empty: not given
  std::vector<double> rotation;      // rotation matrix, 9 values row by row; empty: not given
  std::vector<double> beam;          // incident beam x y z; empty: +z
  bool no_curvature = false;         // Pattern2DGeometry::curvature = false
  bool flat = false;                 // a flat detector instead of the polar one
  std::optional<double> qmax;        // polar: Å⁻¹
  std::optional<int> nq, nphi;       // polar
  std::optional<double> distance, pixel_size;  // flat (mm)
  std::optional<int> nx, ny;                   // flat
  // flat: where the direct beam hits, x y in pixels from the detector's
  // lower-left corner (pixel (0, 0) spans [0, 1) × [0, 1), as gisaxs's
  // direct_beam, docs/conventions.md); empty: the middle (nx/2, ny/2).
  std::vector<double> direct_beam;
};

Pattern2DGeometry make_pattern2d_geometry(const Pattern2DGeometryOptions& options);

// The proper rotation that takes +z onto the unit vector along `beam`
// (minimal angle; a rotation by π about x for a beam along −z).
Mat3 beam_frame(const Vec3& beam);

// The pixels of a detector: rows × cols, row-major.
struct DetectorGrid {
  std::size_t rows = 0, cols = 0;
  std::vector<Vec3> q;  // lab frame, Å⁻¹, one per pixel
  // Polar: rows are |q| (Å⁻¹), columns φ (degrees). Flat: rows are Y and
  // columns X of the pixel centres relative to the beam centre (detector
  // units, mm on the command line). Units spelled as in HDF5 files
  // (docs/nexus.md): "1/angstrom", "deg", "mm".
  std::vector<double> row_axis, col_axis;
  std::string row_name, col_name, row_unit, col_unit;
  bool polar = true;
  // |q| of pixel p.
  double q_magnitude(std::size_t p) const;
};

// Validates the geometry, then builds the grid.
DetectorGrid make_detector_grid(const Pattern2DGeometry& geometry);

struct Pattern2DOptions {
  Radiation radiation = Radiation::xray;
  // energy_kev: anomalous X-ray terms f', f''; debye_waller: T_j =
  // exp(−B_j s²) on each atom.
  FactorOptions factors;
  // X-rays: anomalous terms f', f'' (xraylib) at the photon energy hc/λ of
  // each execute()'s wavelength (factors.energy_kev then stays unset).
  bool anomalous = false;
  // Electrons: multiply the (non-relativistic) Mott–Bethe factor by the
  // Lorentz factor γ of a beam of the given wavelength (Kirkland, Advanced
  // Computing in Electron Microscopy, 2nd ed., eq. 5.8 and 2.5).
  bool relativistic_electrons = true;
  bool amplitude = false;  // keep the complex amplitude A(q)
  DeviceOptions compute;   // device, precision, memory, threads, quiet
  // This process's part of the pixels (MPI runs, docs/mpi.md): the
  // contiguous run share.range(pixels) of the row-major image. The result
  // keeps the whole grid; pixels of other parts hold exactly 0 (intensity
  // and amplitude) until Pattern2DResult::reduce.
  WorkShare share;

  // Every check of these options, once (Pattern2DPlan calls it); errors
  // name the field (fail_option), which the CLI prints as its flag and
  // Python as its keyword.
  void validate() const;
};

struct Pattern2DResult {
  DetectorGrid grid;
  std::vector<double> intensity;                // rows × cols; electrons² (X-ray), fm² (neutron), Å² (electron)
  std::vector<std::complex<double>> amplitude;  // rows × cols when options.amplitude, else empty
  std::size_t atom_count = 0;                   // atoms with occupancy > 0
  double electron_gamma = 1;                    // Lorentz factor applied (electrons)
  std::optional<double> energy_kev;             // photon energy of the anomalous terms f', f'' (keV), when added
  double seconds = 0;                           // wall time of execute()

  // The whole image on every rank from each rank's pixels (Pattern2DOptions::
  // share): each pixel comes from the one rank that computed it (the others
  // hold 0, so the merge is exact). A no-op on one rank.
  void reduce(const parallel::Communicator& comm);
};

class Pattern2DPlan {
 public:
  // Validates the options (Pattern2DOptions::validate) and the atoms
  // (non-empty, finite positions, occupancy in [0, 1], B ≥ 0; errors name
  // the atom) and groups the atoms by species.
  Pattern2DPlan(const Structure& structure, Pattern2DOptions options);
  ~Pattern2DPlan();
  Pattern2DPlan(Pattern2DPlan&&) noexcept;
  Pattern2DPlan& operator=(Pattern2DPlan&&) noexcept;

  Pattern2DResult execute(const Pattern2DGeometry& geometry) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Lorentz factor γ = √(1 + (λ_C/λ)²) of an electron of wavelength λ (Å),
// λ_C = h/(m_e c) the Compton wavelength (relativistic p = h/λ = γ m v).
double electron_lorentz_factor(double wavelength);
// Photon energy in keV of a wavelength in Å: E = hc/λ.
double photon_energy_kev(double wavelength);

}  // namespace nanoscatter
