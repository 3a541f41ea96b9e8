// Interference functions S(q∥) of particle layouts (BornAgain's definitions,
// see nanoscatter/gisaxs.hpp), evaluated on arrays of in-plane q = (q_x, q_y)
// of k_i − k_f in the ambient.
#pragma once
#include <complex>
#include <memory>
#include <span>

#include "nanoscatter/gisaxs.hpp"

namespace nanoscatter::gisaxs {

class InterferenceFunction {
 public:
  virtual ~InterferenceFunction() = default;
  virtual void evaluate(std::span<const double> qx, std::span<const double> qy,
                        std::span<double> out) const = 0;
};

// nullptr for NoInterference (S = 1). A position variance ⟨u²⟩ > 0 wraps
// the function as S → 1 + exp(−q∥² ⟨u²⟩)(S − 1).
std::unique_ptr<InterferenceFunction> make_interference(const Interference& spec, double position_variance);

// The Fourier-transformed profiles (profiles.cpp).
double ft_distribution(const Distribution1D& d, double q);
double ft_distribution(const Distribution2D& d, double q1, double q2);
double ft_decay(const Decay1D& d, double q);
double ft_decay(const Decay2D& d, double qX, double qY);

// One paracrystal direction: Re[(1 + p)/(1 − p)] for an infinite chain, or
// BornAgain's finite-domain sum for n = ⌊domain/spacing⌋ ≥ 1 neighbours,
//   1 + 2 Re[p/(1 − p) − p (1 − pⁿ)/(n (1 − p)²)]
// (paracrystal_sum.cpp). `small_q_limit` is the value at p → 1 of the
// infinite chain, used where 1 − p underflows.
double paracrystal_sum(Complex p, double domain_size, double spacing, double small_q_limit);

// The radial paracrystal's characteristic function of the next-neighbour
// distance, ω(q) = φ(q) exp(i q D) exp(−D/Λ) (BornAgain's FTPDF; Λ = 0: no damping).
Complex radial_paracrystal_ftpdf(const RadialParacrystal& spec, double q_parallel);

// The individual kinds (one file each).
std::unique_ptr<InterferenceFunction> make_radial_paracrystal(const RadialParacrystal& spec);
std::unique_ptr<InterferenceFunction> make_paracrystal_1d(const Paracrystal1D& spec);
std::unique_ptr<InterferenceFunction> make_paracrystal_2d(const Paracrystal2D& spec);
std::unique_ptr<InterferenceFunction> make_lattice_1d(const Lattice1D& spec);
std::unique_ptr<InterferenceFunction> make_lattice_2d(const Lattice2D& spec);

}  // namespace nanoscatter::gisaxs
