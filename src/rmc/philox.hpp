// Philox4x32-10, the counter-based generator of Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3" (SC'11), Random123. The same header
// compiles for the host and for CUDA, so CPU and GPU draw identical numbers
// for a (seed, tile, move) and a run is reproducible whatever the order in
// which tiles or moves are processed. Checked against Random123's
// kat_vectors in tests/unit/test_rmc_model.cpp.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define NS_RMC_HD __host__ __device__ __forceinline__
#else
#define NS_RMC_HD inline
#endif

namespace nanoscatter::rmc {

struct Philox4 {
  std::uint32_t v[4];
};

// Independent streams of one (seed, tile): counter word 3.
enum class RngStream : std::uint32_t { moves = 0, probe = 1, placement = 2, multires = 3 };

NS_RMC_HD Philox4 philox4x32_10(Philox4 c, std::uint32_t k0, std::uint32_t k1) {
  // Multipliers and Weyl key increments of Philox4x32 (Random123 philox.h).
  constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round) {
      k0 += kW0;
      k1 += kW1;
    }
    const std::uint64_t p0 = std::uint64_t(kM0) * c.v[0];
    const std::uint64_t p1 = std::uint64_t(kM1) * c.v[2];
    const std::uint32_t hi0 = std::uint32_t(p0 >> 32), lo0 = std::uint32_t(p0);
    const std::uint32_t hi1 = std::uint32_t(p1 >> 32), lo1 = std::uint32_t(p1);
    c = Philox4{{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
  }
  return c;
}

// Four random words for draw `index` of `stream` of tile `tile`.
NS_RMC_HD Philox4 rmc_random(std::uint64_t seed, std::uint32_t tile, RngStream stream, std::uint64_t index) {
  return philox4x32_10(Philox4{{std::uint32_t(index), std::uint32_t(index >> 32), tile, std::uint32_t(stream)}},
                       std::uint32_t(seed), std::uint32_t(seed >> 32));
}

// An integer in [0, n) from one word: ⌊r·n/2³²⌋. The bias is at most
// n/2³² (< 2.5e-4 for a 1024² lattice), far below Monte Carlo noise; it keeps
// every draw to one word, so CPU and GPU consume the stream identically.
NS_RMC_HD std::uint32_t uniform_below(std::uint32_t r, std::uint32_t n) {
  return std::uint32_t((std::uint64_t(r) * n) >> 32);
}

// A double in [0, 1) with 53 random bits from two words.
NS_RMC_HD double uniform01(std::uint32_t hi, std::uint32_t lo) {
  return double((std::uint64_t(hi) << 21) | (lo >> 11)) * 0x1p-53;
}

}  // namespace nanoscatter::rmc
