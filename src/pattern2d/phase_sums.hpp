// The pattern2d engine's inner kernels: per species s and pixel p the phase
// sum
//   S_s(q_p) = Σ_{j∈s} w_j exp(i q_p·r_j),
// which the caller multiplies by f_s(|q_p|) once per pixel (species
// factorisation). Every backend (float64 reference, fast CPU, CUDA)
// implements the same function; tests compare them with the reference.
//
// Fast paths split each phase as q·r_j = q·c_g + q·d_j, where c_g is the
// centre of a group of kGroupSize spatially adjacent atoms (a k-d tree leaf) and
// d_j = r_j − c_g is small (a few Å). The group phase q·c_g — large, up to
// |q|·(particle size) — is evaluated and reduced in float64 once per group
// and pixel; the per-atom phases q·d_j stay small, so float32 arithmetic
// keeps them to ~1e-6 rad, and their sum over the group is rotated by
// exp(i q·c_g) and added in float64. This is the accurate range reduction
// of q·r that a float32 kernel needs for particles of hundreds of Å.
#pragma once
#include <complex>
#include <cstddef>
#include <span>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/scattering_factors.hpp"
#include "nanoscatter/structure.hpp"
#include "nanoscatter/vec3.hpp"
#include "structure/species_split.hpp"

namespace nanoscatter::pattern2d {

// Atoms of one species, structure-of-arrays, Å; w = occupancy weight.
using AtomList = AtomSoA;

// Atoms sharing element, charge and B scatter with one f(|q|).
struct SpeciesAtoms {
  std::vector<Species> species;  // in order of first appearance
  std::vector<AtomList> atoms;   // one list per species
  std::size_t atom_count = 0;    // atoms with occupancy > 0
};

// Validates the structure (non-empty, finite positions, occupancy in [0, 1],
// B finite and ≥ 0; errors name the atom) and groups it by species. Atoms
// with occupancy 0 never scatter and are left out.
SpeciesAtoms group_species(const Structure& structure);

// Atoms per group sharing one centre: a warp's worth on the GPU; 32 atoms
// of a dense crystal (fcc metal) fill ~2×2×2 unit cells, |d| ≲ 7 Å.
constexpr std::size_t kGroupSize = 32;

// One species' atoms cut into spatially compact groups of kGroupSize
// (recursive bisection); the last group is padded with w = 0 atoms at its
// centre.
struct AtomGroups {
  std::vector<double> dx, dy, dz, w;   // offsets from the group centre (Å) and weights, padded
  std::vector<double> cx, cy, cz;      // group centres (Å), one per group
  std::size_t atoms = 0;               // real atoms (before padding)
  std::size_t groups() const { return cx.size(); }
};

AtomGroups make_atom_groups(const AtomList& atoms);

// out[s·P + p] += S_s(q_p) for species s and pixel p (P = q.size()), all in
// one call so that a backend can reuse the pixels across species.
// Reference: direct float64 sum with std::sin/std::cos.
void phase_sums_reference(std::span<const AtomList> species, std::span<const Vec3> q,
                          std::span<std::complex<double>> out);
// Fast CPU path: OpenMP over pixel blocks, SIMD over the atoms of a group;
// float32 or float64 per-atom phases (precision), float64 group sums.
void phase_sums_cpu(std::span<const AtomGroups> species, std::span<const Vec3> q,
                    std::span<std::complex<double>> out, Precision precision, int threads);
#if NANOSCATTER_HAVE_CUDA
struct CudaPattern2DOptions {
  Precision precision = Precision::float32;
  std::size_t max_device_memory = 0;  // 0: use up to half of the free memory
};
void phase_sums_cuda(std::span<const AtomGroups> species, std::span<const Vec3> q,
                     std::span<std::complex<double>> out, const CudaPattern2DOptions& options);
#endif

}  // namespace nanoscatter::pattern2d
