// Reproducible random numbers for the builder's defects: std::mt19937_64
// (whose sequence the C++ standard fixes) turned into uniform integers and
// normal deviates by our own code, since the standard distribution classes
// produce implementation-defined sequences.
#pragma once
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace nanoscatter {

class ReproducibleRandom {
 public:
  explicit ReproducibleRandom(std::uint64_t seed) : engine_(seed) {}

  // Uniform integer in [0, n), n > 0, by rejection: the accepted range
  // [2^64 mod n, 2^64) holds a whole number of copies of [0, n).
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    for (;;) {
      const std::uint64_t x = engine_();
      if (x >= threshold) return x % n;
    }
  }

  // Uniform in [0, 1) from the top 53 bits (the double mantissa).
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // Standard normal deviate, Box–Muller (Box & Muller, Ann. Math. Stat. 29, 610 (1958)).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    const double radius = std::sqrt(-2 * std::log(u1));
    const double angle = 2 * std::numbers::pi * u2;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0;
};

}  // namespace nanoscatter
