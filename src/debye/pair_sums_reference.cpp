// Float64 reference for the exact Debye pair sums: a plain double loop with
// std::sin, no tiling, no recurrence, no threads. Every fast path is tested
// against it.
#include <cmath>

#include "debye/pair_sums.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::debye {

namespace {
void add_pair(double r, double weight, std::span<const double> q, std::span<double> out) {
  if (r == 0) {
    // Coincident atoms: sin(q r)/r → q (sinc(0) = 1 after the caller divides by q).
    for (std::size_t k = 0; k < q.size(); ++k) out[k] += weight * q[k];
    return;
  }
  for (std::size_t k = 0; k < q.size(); ++k) out[k] += weight * std::sin(q[k] * r) / r;
}

double distance(const AtomBlock& a, std::size_t i, const AtomBlock& b, std::size_t j) {
  const double dx = a.x[i] - b.x[j], dy = a.y[i] - b.y[j], dz = a.z[i] - b.z[j];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}
}  // namespace

void exact_pair_sums_reference(const AtomBlock& a, const AtomBlock& b, PairSet set,
                               std::span<const double> q, std::span<double> out) {
  if (out.size() != q.size()) fail("exact_pair_sums_reference: out has ", out.size(),
                                   " entries for ", q.size(), " Q points");
  if (set == PairSet::triangle) {
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t j = i + 1; j < a.size(); ++j)
        add_pair(distance(a, i, a, j), a.w[i] * a.w[j], q, out);
    return;
  }
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j)
      add_pair(distance(a, i, b, j), a.w[i] * b.w[j], q, out);
}

}  // namespace nanoscatter::debye
