// Size–spacing correlation approximation (SSCA) of a layout with a radial
// paracrystal (BornAgain 1.19's SSCApproximationStrategy; Lazzari,
// IsGISAXS): the distance from a particle of radial extension R_i to its
// neighbour grows by κ (R_i − ⟨R⟩), which puts the phase
// c_i(q) = exp(i κ q (R_i − ⟨R⟩)) on each kind's amplitude, q = |q∥| (nm⁻¹).
// With the kinds' weights w_i and DWBA amplitudes F_i:
//   A = Σ w_i c_i F_i,  B = Σ w_i c_i F_i*,  P = Σ w_i c_i²,
//   ω(q) = φ(q) exp(i q D) exp(−D/Λ)   (the paracrystal's FTPDF; its domain
//                                       size plays no part, as in BornAgain),
//   I/ρ = Σ w_i |F_i|² + e^{−q²⟨u²⟩} · 2 Re[A B ω / (1 − P ω)].
// For κ = 0 this is the decoupling approximation with an infinite domain.
#pragma once
#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

struct SscaCoupling {
  RadialParacrystal paracrystal;  // D, Λ, φ and κ
  double mean_radius = 0;         // ⟨R⟩ = Σ w_i R_i, nm
  double position_variance = 0;   // ⟨u²⟩, nm²

  // c(q) = exp(i κ q (R − ⟨R⟩)).
  Complex phase(double q_parallel, double radial_extension) const;
  // e^{−q²⟨u²⟩} · 2 Re[A B ω/(1 − P ω)], the interference part of I/ρ.
  double interference(double q_parallel, Complex a, Complex b, Complex p) const;
};

}  // namespace nanoscatter::gisaxs
