// A PDF model with the conventions of PDFfit2/PDFgui (C. L. Farrow et al.,
// J. Phys.: Condens. Matter 19, 335219 (2007); Th. Proffen & S. J. L.
// Billinge, J. Appl. Cryst. 32, 572 (1999)), computed from the Debye
// engine's pair-distance histograms (per species pair, float64, bin width
// DebyeOptions::bin_width, default 1e-3 Å). docs/debye.md, "PDF model",
// writes the same equations out.
//
// With N = Σ w_i, c_mn = Re(f_m f_n*)/|⟨f⟩|² at Q = 0 (as debye_pdf.hpp) and
// e = 1 + ε (isotropic lattice expansion, applied to the histogram's
// distances: bin centre and mean offset scaled by e, within-bin variance
// by e²):
//
//   G(r) = s · [T ⊗ (exp(−(Qdamp r′)²/2) G_sharp(r′))](r)
//   G_sharp(r) = (1/(N r)) Σ_bins 2 c_mn W_b g(r; e r_b, σ_b) / E(r)
//                − 4π r ρ0 γ(r)
//   g(r; μ, σ) = exp(−(r − μ)²/(2σ²)) / (√(2π) σ)
//   σ_b² = σ'_mn(e r_b)² + e² v_b,   v_b = Σwδ²/Σw − (Σwδ/Σw)²
//   σ'_mn(r) = σ_mn · √(1 − δ1/r − δ2/r² + Qbroad² r²),  σ_mn² = U_m + U_n
//
// (W_b = Σ w_i w_j of the bin, r_b its mean distance.) U is Uiso in Å²
// (B = 8π²U). A bin whose radicand is ≤ 0 is left out, as PDFfit2 leaves
// such a pair out. The Qdamp envelope multiplies G_sharp before the
// termination, PDFfit2's order (DataSet::determine in libpdffit2/pdf.cc).
// Envelopes: sphere (default) E = 1, γ = γ0(r; eR) of the equivalent sphere
// (debye_pdf.hpp), ρ0 = N / V; bulk: E = γ = γ0(r; eR), so that a large
// particle stands for the bulk, γ = 1 in the baseline (the pair term,
// whose average is ρ0 γ0 times the bulk's, is divided by γ0); valid for r
// well below the diameter (r ≤ R keeps γ0 ≥ 5/16; the surface's
// departure from the sphere makes an error of order a/R in the pair term
// there). In both, ρ0 scales as 1/e³.
//
// Termination T at Qmax (with Qmin ≥ 0), as a sine transform pair:
//   [T ⊗ G](r) = (2/π) ∫_{Qmin}^{Qmax} F(Q) sin(Qr) dQ,  F(Q) = ∫_0^∞ G(r') sin(Qr') dr'
//              = ∫_0^∞ G(r') [K(r − r') − K(r + r')] dr',
//   K(x) = (sin(Qmax x) − sin(Qmin x)) / (π x),  K(0) = (Qmax − Qmin)/π,
// done on a uniform grid r'_k = (k + ½) h (h = termination_step) by the
// midpoint sum, out to where G_sharp ends for a sphere (2eR, or the
// largest distance plus 8 σ), and for the bulk envelope out to the largest
// output r plus termination_extension, but not beyond 1.5eR (γ0 = 0.086);
// PDFfit2 does the same convolution by FFT. Qmax = 0: no termination.
//
// Nanoparticle size (PDFgui's spdiameter, with a log-normal spread): with
// the bulk envelope and sphere_radius R_m > 0, G_sharp is multiplied by
//   E(r) = ⟨V γ0(r; R)⟩ / ⟨V⟩   over a number distribution of radii,
// ln R normal with median R_m and σ = sphere_sigma (0: E = γ0(r; R_m)):
// the G(r) of a powder of such spheres normalised per atom, since each
// sphere's atoms (∝ V) carry its G_bulk · γ0(r; R). In closed form
// (γ0 = 1 − 3r/(4R) + r³/(16R³) for R > r/2, moments of the log-normal
// cut at R = r/2), with μ = ln R_m, a = ln(r/2):
//   E(r) = T3 − (3r/4) T2 + (r³/16) T0,
//   Tk = exp((k − 3)μ + (k² − 9)σ²/2) · ½ erfc((a − μ − kσ²)/(√2 σ)).
// E is smooth in R_m and σ (finite-difference Jacobians). The large
// particle must reach the output: r ≤ eR_large (checked); its termination
// grid ends at min(eR_large, last r + termination_extension).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "nanoscatter/debye.hpp"

namespace nanoscatter {

enum class PdfEnvelope { sphere, bulk };
PdfEnvelope parse_pdf_envelope(const std::string& name);  // "sphere", "bulk"
const char* to_string(PdfEnvelope envelope);

struct PdfModelOptions {
  double qmax = 0;                    // Å⁻¹, termination; 0: none
  double qmin = 0;                    // Å⁻¹, 0 ≤ qmin < qmax
  PdfEnvelope envelope = PdfEnvelope::sphere;
  double number_density = 0;          // ρ0, Å⁻³ at ε = 0; 0: N / V of the equivalent sphere
  double termination_step = 0.005;    // h, Å (keep ≤ the narrowest σ_b / 2)
  double termination_extension = 10;  // Å beyond the last output r (bulk envelope)
  void validate() const;  // fields pdf_qmax, pdf_qmin, number_density, termination_step, termination_extension
};

struct PdfParameters {
  double scale = 1;
  double delta1 = 0;             // Å
  double delta2 = 0;             // Å²
  double qdamp = 0;              // Å⁻¹
  double qbroad = 0;             // Å⁻¹
  double lattice_expansion = 0;  // ε: every distance times 1 + ε
  std::vector<double> u;         // Uiso per species (PdfModel::species order), Å²
  double sphere_radius = 0;      // median radius R_m of the particles, Å (bulk envelope); 0: no size envelope
  double sphere_sigma = 0;       // σ of ln R (number distribution); 0: monodisperse
};

// The size envelope E(r) above: ⟨V γ0(r; R)⟩/⟨V⟩ over ln R ~ N(ln median_radius, sigma²);
// 1 when median_radius is 0, γ0(r; median_radius) when sigma is 0.
double sphere_size_envelope(double r, double median_radius, double sigma);

class PdfModel {
 public:
  // Histograms the structure once (options.bin_width, options.device;
  // options.share is ignored: every pair is binned here).
  PdfModel(const Structure& structure, const DebyeOptions& options, const PdfModelOptions& pdf = {});

  const std::vector<std::string>& species() const { return labels_; }
  // Uiso of each species from the structure's B (B / 8π²), and scale 1.
  PdfParameters default_parameters() const;
  // G(r) in Å⁻² at each r (> 0, Å).
  std::vector<double> evaluate(const PdfParameters& p, std::span<const double> r) const;
  // G_sharp at each r (no termination, no Qdamp, no scale).
  std::vector<double> sharp(const PdfParameters& p, std::span<const double> r) const;

  double atoms() const { return atoms_; }
  double sphere_radius() const { return sphere_radius_; }    // R at ε = 0, Å
  double number_density() const { return number_density_; }  // ρ0 at ε = 0, Å⁻³
  const PdfModelOptions& options() const { return options_; }

 private:
  struct Bin {
    double r, weight, variance;  // mean distance (Å), 2 c_mn W / N, within-bin variance (Å²)
  };
  struct PairBins {
    std::size_t m, n;
    std::vector<Bin> bins;
  };
  PdfModelOptions options_;
  std::vector<std::string> labels_;
  std::vector<double> default_u_;
  std::vector<PairBins> pairs_;
  double atoms_ = 0, sphere_radius_ = 0, number_density_ = 0, largest_distance_ = 0;
};

}  // namespace nanoscatter
