// Pair distribution function of a finite particle, from the Debye engine's
// pair-distance histograms (float64 distances).
//
// Definitions (N = Σ_i w_i, occupancy weights w; f_i = f_i(Q = 0) without
// Debye–Waller, X-ray f0(0) (+ f', f'' when an energy is set), neutron b_c,
// electron f_e(0); ⟨f⟩ = Σ_i w_i f_i / N):
//
//   R(r) = (1/N) Σ_{i≠j} w_i w_j c_ij δ(r − r_ij),  c_ij = Re(f_i f_j*) / |⟨f⟩|²
//          (atoms per Å; the radial distribution function, binned on a grid
//          of step dr: each bin holds its pairs' weight divided by dr)
//   G(r) = R(r)/r − 4π r ρ0 γ0(r)                   (Å⁻²; reduced PDF of a
//          finite particle)
//
// ρ0 = N / V is the number density and γ0 the characteristic function of the
// particle's shape, both taken for the equivalent homogeneous sphere: its
// radius R = √(5/3)·R_g from the radius of gyration of the atoms (a uniform
// sphere has R_g² = 3R²/5), V = 4πR³/3, and
//   γ0(r) = 1 − 3r/(4R) + r³/(16R³) for r ≤ 2R, 0 beyond
// (the sphere's overlap volume with its copy shifted by r, over V; Guinier &
// Fournet 1955). With it G(r) oscillates about 0 out to the particle
// diameter, where the bulk form G(r) = 4πrρ0[g(r) − 1] would fall as −4πρ0r
// (K. Kodama et al., Acta Cryst. A 62, 444 (2006) for this finite-size
// term). The sphere is an approximation for other shapes; R(r) itself
// involves no such choice.
#pragma once
#include <functional>
#include <span>
#include <vector>

#include "nanoscatter/debye.hpp"

namespace nanoscatter {

struct PdfOptions {
  double dr = 0.01;   // Å, output grid step (the histogram's Δr is options.bin_width)
  double r_max = 0;   // Å, last r of the grid; 0: the largest pair distance
  void validate() const;  // fields named pdf_dr and pdf_rmax (the CLI's --pdf-dr, --pdf-rmax)
};

// MPI runs (docs/mpi.md): with options.share of several parts, each part
// histograms its own pair blocks, and the combiner must replace every array
// it is given by its sum over the parts, on the part whose PDF is used (all
// parts call it alike: the same arrays in the same order).
using HistogramCombiner = std::function<void(std::span<double>)>;

struct PdfResult {
  std::vector<double> r;       // bin centres, Å
  std::vector<double> rdf;     // R(r), Å⁻¹
  std::vector<double> g;       // G(r), Å⁻²
  double number_density = 0;   // ρ0, Å⁻³
  double sphere_radius = 0;    // R = √(5/3)·R_g, Å
  double radius_of_gyration = 0;
  double atoms = 0;            // N = Σ w
};

// Histograms on options.device (CPU or CUDA) with options.bin_width; errors
// name the option at fault (--pdf-dr, --pdf-rmax, --bin-width).
// Without a combiner the PDF histograms every pair itself, whatever
// options.share says.
PdfResult pair_distribution(const Structure& structure, const DebyeOptions& options,
                            const PdfOptions& pdf = {}, const HistogramCombiner& combine = {});

// The same from a plan: in histogram mode from the plan's own histograms
// (the pairs are binned once for I(Q) and the PDF), otherwise histogrammed
// here with the plan's options.
PdfResult pair_distribution(const DebyePlan& plan, const PdfOptions& pdf, const HistogramCombiner& combine = {});

}  // namespace nanoscatter
