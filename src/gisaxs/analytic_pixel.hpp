// The intensity of one detector pixel on the analytic GPU path, as a
// __host__ __device__ function over a trivially copyable view of the plan's
// tables (analytic_tables.hpp owns them on the host, analytic_cuda.cu on the
// device). It is the CPU pixel loop of api.cpp for one beam, one pixel:
//   per layout and kind: the DWBA's terms (dwba.hpp) from the incident and
//   outgoing layer fields, F at each term's q (analytic_math.hpp, in Real),
//   A = (π/λ²) (n_p² − n_host²) Σ_t c_t e^{−i q_z,t d} F(q_t)  (float64 from here),
//   decoupling        I = ρ [Σ w|A|² + |Σ w A|² (S − 1)],
//   local monodisperse I = ρ S Σ w|A|²,
//   SSCA (ssca.hpp)   I = ρ [Σ w|A|² + e^{−q∥²⟨u²⟩} 2 Re(A' B ω/(1 − P ω))],
//   then I · ΔΩ · I_beam/sin α_i + background.
// A kind's A may come from a buffer instead (PixelView::amplitudes): the
// amplitudes kept on the device per kind (analytic_cuda.cu, filled by
// pixel_amplitude), so that a re-evaluation after set_layouts computes the
// changed kinds only and recombines the others' (api.cpp).
// Precision: Real = float evaluates only the form factors in float32; the
// coefficients, the sums over kinds and the SSCA's 1/(1 − P ω), which
// cancels as q∥ → 0 (P ω → 1), stay in float64.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gisaxs/analytic_math.hpp"

namespace nanoscatter::gisaxs::analytic {

// The DWBA's at most four terms per pixel (one in the Born approximation).
inline constexpr int kMaxTerms = 4;

// A layer's plane-wave fields (multilayer.hpp's LayerField as plain numbers).
struct Field {
  Cx<double> kz, t, r;
};

enum class Mixture : std::int32_t { decoupling, local_monodisperse, ssca };
enum class Profile : std::int32_t { gauss, cauchy, voigt };

// One particle kind of a layout: a single-body analytic shape, unrotated.
struct Kind {
  ShapeParams shape;
  std::int32_t layer = 0;
  double depth = 0;       // nm, the bottom below the layer's reference interface
  double weight = 0;      // share of the layout's particles
  Cx<double> contrast;    // n_p² − n_host²
  double ssca_offset = 0; // R_i − ⟨R⟩, nm (SSCA only)
};

struct LayoutTerms {
  std::int32_t first_kind = 0, kind_count = 0;
  Mixture mixture = Mixture::decoupling;
  double density = 0;  // nm⁻²
  // Decoupling and local monodisperse: S(q∥) of every pixel at
  // structure[structure_offset + pixel] (computed on the CPU: it does not
  // depend on the particles), or −1 for S = 1.
  std::int64_t structure_offset = -1;
  // SSCA: κ, the radial paracrystal's D, e^{−D/Λ}, its profile φ and ⟨u²⟩.
  double coupling = 0, peak_distance = 0, damping = 1, position_variance = 0;
  Profile profile = Profile::gauss;
  double omega = 0, eta = 0.5;
};

struct PixelView {
  std::size_t pixels = 0;
  const double* qx = nullptr;  // nm⁻¹, q = k_i − k_f in the ambient
  const double* qy = nullptr;
  const double* qz = nullptr;  // the Born term's q_z
  const double* scale = nullptr;  // ΔΩ · I_beam / sin α_i
  const std::uint8_t* reachable = nullptr;
  const std::uint32_t* field_row = nullptr;  // pixel → row of `outgoing`
  const Field* outgoing = nullptr;           // rows × layers, the fields at α_f
  const Field* incident = nullptr;           // layers, the fields at α_i
  std::int32_t layers = 0;
  bool dwba = true;
  double amplitude_prefactor = 0;  // π/λ², nm⁻²
  double background = 0;
  const Kind* kinds = nullptr;
  const LayoutTerms* layouts = nullptr;
  std::int32_t layout_count = 0;
  const double* structure = nullptr;
  MathTables tables;
  // Per kind: its A(pixel) (the prefactor and contrast included), kept
  // from an earlier launch, or null: computed in pixel_intensity. Null
  // altogether: every kind computed (one fused pass).
  Cx<double>* const* amplitudes = nullptr;
};

// BornAgain's FTDistribution1D φ(q) (interference/profiles.cpp).
NS_GISAXS_HD double ft_profile(Profile kind, double omega, double eta, double q) {
  const double x2 = q * q * omega * omega;
  const double gauss = rexp(-x2 / 2), cauchy = 1.0 / (1.0 + x2);
  return kind == Profile::gauss ? gauss : kind == Profile::cauchy ? cauchy : eta * gauss + (1 - eta) * cauchy;
}

// The SSCA's interference part of I/ρ (ssca.cpp).
NS_GISAXS_HD double ssca_interference(const LayoutTerms& l, double q_par, Cx<double> a, Cx<double> b,
                                      Cx<double> p) {
  const double magnitude = ft_profile(l.profile, l.omega, l.eta, q_par) * l.damping;
  const double phase = q_par * l.peak_distance;
  const Cx<double> omega(magnitude * rcos(phase), magnitude * rsin(phase));
  const double debye_waller = rexp(-q_par * q_par * l.position_variance);
  return debye_waller * 2.0 * (a * b * omega / (1.0 - p * omega)).re;
}

// The terms' q_z and coefficients of a particle in `layer` at `depth`
// (dwba.cpp's dwba_terms and born_terms, times the depth phase).
NS_GISAXS_HD int pixel_terms(const PixelView& v, std::size_t pixel, std::int32_t layer, double depth,
                             Cx<double>* qz, Cx<double>* coefficient) {
  int terms = 1;
  if (v.dwba) {
    const Field in = v.incident[layer];
    const Field out = v.outgoing[std::size_t(v.field_row[pixel]) * std::size_t(v.layers) + std::size_t(layer)];
    qz[0] = -in.kz - out.kz;
    qz[1] = in.kz - out.kz;
    qz[2] = -in.kz + out.kz;
    qz[3] = in.kz + out.kz;
    coefficient[0] = in.t * out.t;
    coefficient[1] = in.r * out.t;
    coefficient[2] = in.t * out.r;
    coefficient[3] = in.r * out.r;
    terms = 4;
  } else {
    qz[0] = Cx<double>(v.qz[pixel]);
    coefficient[0] = Cx<double>(1.0);
  }
  if (depth != 0)
    for (int t = 0; t < terms; ++t) coefficient[t] = coefficient[t] * exp_i(-qz[t] * depth);
  return terms;
}

// The terms of a pixel for the kinds of one layer and depth (a size
// distribution's samples all share them): recomputed only when those change.
template <class Real>
struct PixelTerms {
  std::int32_t layer = -1;
  double depth = 0;
  int count = 0;
  Cx<double> qz[kMaxTerms], coefficient[kMaxTerms];
  Cx<Real> qz_real[kMaxTerms];

  NS_GISAXS_HD void update(const PixelView& v, std::size_t pixel, const Kind& kind) {
    if (kind.layer == layer && kind.depth == depth) return;
    count = pixel_terms(v, pixel, kind.layer, kind.depth, qz, coefficient);
    for (int t = 0; t < count; ++t) qz_real[t] = Cx<Real>(qz[t]);
    layer = kind.layer;
    depth = kind.depth;
  }
};

// A = (π/λ²) (n_p² − n_host²) Σ_t c_t F(q_t) of a kind at a pixel (F in Real).
template <class Real>
NS_GISAXS_HD Cx<double> kind_amplitude(const PixelView& v, const Kind& kind, double qx, double qy,
                                       const PixelTerms<Real>& terms) {
  Cx<Real> f[kMaxTerms];
  form_factors<Real>(kind.shape, Real(qx), Real(qy), terms.qz_real, terms.count, f, v.tables);
  Cx<double> sum;
  for (int t = 0; t < terms.count; ++t) sum += terms.coefficient[t] * Cx<double>(f[t]);
  return v.amplitude_prefactor * (kind.contrast * sum);
}

// Kind k's A at a reachable pixel, alone (the kept amplitudes' fill).
template <class Real>
NS_GISAXS_HD Cx<double> pixel_amplitude(const PixelView& v, std::int32_t k, std::size_t pixel) {
  PixelTerms<Real> terms;
  terms.update(v, pixel, v.kinds[k]);
  return kind_amplitude<Real>(v, v.kinds[k], v.qx[pixel], v.qy[pixel], terms);
}

template <class Real>
NS_GISAXS_HD double pixel_intensity(const PixelView& v, std::size_t pixel) {
  if (!v.reachable[pixel]) return v.background;
  const double qx = v.qx[pixel], qy = v.qy[pixel];
  const double q_par = rhypot(qx, qy);
  double total = 0;
  for (std::int32_t l = 0; l < v.layout_count; ++l) {
    const LayoutTerms& layout = v.layouts[l];
    const bool ssca = layout.mixture == Mixture::ssca;
    double incoherent = 0;
    Cx<double> coherent, coherent_conjugate, coupling;
    PixelTerms<Real> terms;
    for (std::int32_t k = layout.first_kind; k < layout.first_kind + layout.kind_count; ++k) {
      const Kind& kind = v.kinds[k];
      const Cx<double>* kept = v.amplitudes ? v.amplitudes[k] : nullptr;
      Cx<double> a;
      if (kept) {
        a = kept[pixel];
      } else {
        terms.update(v, pixel, kind);
        a = kind_amplitude<Real>(v, kind, qx, qy, terms);
      }
      incoherent += kind.weight * norm(a);
      if (ssca) {
        const Cx<double> c = exp_i(Cx<double>(layout.coupling * q_par * kind.ssca_offset));
        coherent += kind.weight * (c * a);
        coherent_conjugate += kind.weight * (c * conj(a));
        coupling += kind.weight * (c * c);
      } else {
        coherent += kind.weight * a;
      }
    }
    if (ssca) {
      total += layout.density * (incoherent + ssca_interference(layout, q_par, coherent, coherent_conjugate, coupling));
      continue;
    }
    const double s = layout.structure_offset < 0 ? 1.0 : v.structure[std::size_t(layout.structure_offset) + pixel];
    const double intensity =
        layout.mixture == Mixture::decoupling ? incoherent + norm(coherent) * (s - 1.0) : incoherent * s;
    total += layout.density * intensity;
  }
  return total * v.scale[pixel] + v.background;
}

}  // namespace nanoscatter::gisaxs::analytic
