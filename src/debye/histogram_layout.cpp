// Fast pair-histogram layout (histogram_layout.hpp).
#include "debye/histogram_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "nanoscatter/error.hpp"

namespace nanoscatter::debye {

namespace {

using hist::GroupGeometry;
using hist::PackedAtom;

struct Box {
  double lo[3] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                  std::numeric_limits<double>::infinity()};
  double hi[3] = {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                  -std::numeric_limits<double>::infinity()};
  void include(double x, double y, double z) {
    const double p[3] = {x, y, z};
    for (int d = 0; d < 3; ++d) lo[d] = std::min(lo[d], p[d]), hi[d] = std::max(hi[d], p[d]);
  }
  void include(const AtomBlock& b) {
    for (std::size_t i = 0; i < b.size(); ++i) include(b.x[i], b.y[i], b.z[i]);
  }
  double diagonal() const {
    double s = 0;
    for (int d = 0; d < 3; ++d) s += (hi[d] - lo[d]) * (hi[d] - lo[d]);
    return std::sqrt(s);
  }
  // Largest distance from p to any point of the box.
  double farthest(const double p[3]) const {
    double s = 0;
    for (int d = 0; d < 3; ++d) {
      const double e = std::max(std::abs(p[d] - lo[d]), std::abs(p[d] - hi[d]));
      s += e * e;
    }
    return std::sqrt(s);
  }
};

Box pair_box(const AtomBlock& a, const AtomBlock& b, PairSet set) {
  Box box;
  box.include(a);
  if (set == PairSet::rectangle) box.include(b);
  return box;
}

// Atoms are ordered as PackedAtoms (bin units relative to the layout's
// origin, key = index in the block), so the ordered list is the packed one:
// no gather from the block afterwards.
double coord(const PackedAtom& a, int axis) { return axis == 0 ? a.x : axis == 1 ? a.y : a.z; }

// Orders pts[lo, hi) so that consecutive runs of g are compact: split at a
// multiple of g near the middle, along the longest axis of the range's box
// (a k-d tree whose leaves are the groups; boxes stay within a factor ~2 of
// cubes, unlike runs of a space-filling curve, which can straddle two
// distant cells). Large halves become OpenMP tasks.
void bisect(std::vector<PackedAtom>& pts, std::size_t lo, std::size_t hi, std::size_t g) {
  constexpr std::size_t kTaskAtoms = 1 << 15;
  while (hi - lo > g) {
    Box box;
    for (std::size_t s = lo; s < hi; ++s) box.include(pts[s].x, pts[s].y, pts[s].z);
    int axis = 0;
    for (int d = 1; d < 3; ++d)
      if (box.hi[d] - box.lo[d] > box.hi[axis] - box.lo[axis]) axis = d;
    const std::size_t groups = (hi - lo + g - 1) / g;
    const std::size_t mid = lo + (groups / 2) * g;
    std::nth_element(pts.begin() + std::ptrdiff_t(lo), pts.begin() + std::ptrdiff_t(mid),
                     pts.begin() + std::ptrdiff_t(hi),
                     [axis](const PackedAtom& u, const PackedAtom& v) { return coord(u, axis) < coord(v, axis); });
    if (mid - lo >= kTaskAtoms) {
#pragma omp task default(none) shared(pts) firstprivate(lo, mid, g)
      bisect(pts, lo, mid, g);
    } else {
      bisect(pts, lo, mid, g);
    }
    lo = mid;
  }
}

// Atom positions in bin units relative to the origin (float64: the kernel
// computes distances in float64, histogram_pair_math.hpp).
struct Packer {
  double origin[3];
  double inv_width;
  PackedAtom pack(const AtomBlock& b, std::size_t i) const {
    return {(b.x[i] - origin[0]) * inv_width, (b.y[i] - origin[1]) * inv_width, (b.z[i] - origin[2]) * inv_width,
            std::int32_t(i), 0};
  }
  // Packs a whole block in its order (keys = indices), in parallel.
  std::vector<PackedAtom> pack(const AtomBlock& b) const {
    std::vector<PackedAtom> out(b.size());
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < b.size(); ++i) out[i] = pack(b, i);
    return out;
  }
};

}  // namespace

bool uniform_weights(const AtomBlock& block) {
  for (std::size_t i = 1; i < block.size(); ++i)
    if (block.w[i] != block.w[0]) return false;
  return true;
}

std::size_t histogram_bins_needed(const AtomBlock& a, const AtomBlock& b, PairSet set, double bin_width) {
  return std::size_t(std::floor(pair_diagonal(a, b, set) / bin_width)) + 2;
}

double pair_diagonal(const AtomBlock& a, const AtomBlock& b, PairSet set) { return pair_box(a, b, set).diagonal(); }

FastHistogramLayout make_fast_layout(const AtomBlock& a, const AtomBlock& b, PairSet set, double bin_width,
                                     int window_bins) {
  const bool triangle = set == PairSet::triangle;
  if (window_bins < 1024) fail("make_fast_layout: window of ", window_bins, " bins, fewer than 1024");
  const Box box = pair_box(a, b, set);
  const double diag_bins = box.diagonal() / bin_width;
  FastHistogramLayout out;
  out.triangle = triangle;
  out.window_bins = window_bins;
  out.bins = int(std::floor(diag_bins)) + 2;
  if (diag_bins + 2 > hist::kMaxFastBins)
    fail("make_fast_layout: ", diag_bins, " bins exceed the fast path's ", hist::kMaxFastBins);

  Packer split;
  for (int d = 0; d < 3; ++d) split.origin[d] = 0.5 * (box.lo[d] + box.hi[d]);
  split.inv_width = 1.0 / bin_width;

  // i atoms ordered so that runs of kGroupAtoms are compact groups.
  std::vector<PackedAtom> pts = split.pack(a);
#pragma omp parallel
#pragma omp single
  bisect(pts, 0, pts.size(), hist::kGroupAtoms);

  // Groups: centre of their box, radius (+1 bin of margin), and shells sized
  // so that a shell's pairs fit the window: width + 2·rho + 8 ≤ W (the
  // kernel does not check it per pair, histogram_pair_math.hpp). A group too
  // wide for a window with shells of at least W/8 (loose atoms, odd pieces
  // at a surface), or too wide for the shells that kMaxShells allows, is
  // halved again.
  Box jbox;
  if (triangle) {
    jbox.include(a);
  } else {
    jbox.include(b);
  }
  for (int d = 0; d < 3; ++d) {
    jbox.lo[d] = (jbox.lo[d] - split.origin[d]) * split.inv_width;
    jbox.hi[d] = (jbox.hi[d] - split.origin[d]) * split.inv_width;
  }
  const double w = window_bins;
  const double rho_fits = 0.5 * (w - 8.0 - w / 8.0);
  const auto geometry = [&](std::size_t first, std::size_t last) {
    Box g;
    for (std::size_t s = first; s < last; ++s) g.include(pts[s].x, pts[s].y, pts[s].z);
    GroupGeometry geo{};
    geo.cx = 0.5 * (g.lo[0] + g.hi[0]);
    geo.cy = 0.5 * (g.lo[1] + g.hi[1]);
    geo.cz = 0.5 * (g.lo[2] + g.hi[2]);
    const double c[3] = {geo.cx, geo.cy, geo.cz};
    double rho = 0;
    for (std::size_t s = first; s < last; ++s) {
      const double p[3] = {pts[s].x, pts[s].y, pts[s].z};
      rho = std::max(rho, std::sqrt((p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) +
                                    (p[2] - c[2]) * (p[2] - c[2])));
    }
    rho += 1.0;
    const double d_max = jbox.farthest(c) + 2.0;
    double width = std::max(w - 2.0 * rho - 8.0, w / 8.0);
    int nshell = int(std::ceil(d_max / width)) + 1;
    if (nshell > hist::kMaxShells) {
      width = d_max / (hist::kMaxShells - 2);
      nshell = hist::kMaxShells;
    }
    geo.rho = rho;
    geo.shell_width = width;
    geo.inv_shell_width = 1.0 / width;
    geo.nshell = nshell;
    geo.first = std::int32_t(first);
    geo.count = std::int32_t(last - first);
    geo.j_first = triangle ? std::int32_t(last) : 0;  // the group's own pairs are taken apart
    return geo;
  };
  const auto fits = [&](const GroupGeometry& geo) { return geo.shell_width + 2.0 * geo.rho + 8.0 <= w; };
  const auto emit = [&](auto&& self, std::size_t first, std::size_t last, std::size_t size) -> void {
    const GroupGeometry geo = geometry(first, last);
    if ((geo.rho <= rho_fits && fits(geo)) || last - first == 1) {
      if (!fits(geo))
        fail("make_fast_layout: a window of ", window_bins, " bins cannot hold the shells of ", diag_bins,
             " bins of distances (", hist::kMaxShells, " shells at most)");
      out.groups.push_back(geo);
      return;
    }
    const std::size_t half = (size + 1) / 2;
    bisect(pts, first, last, half);
    for (std::size_t s = first; s < last; s += half) self(self, s, std::min(last, s + half), half);
  };
  for (std::size_t first = 0; first < a.size(); first += hist::kGroupAtoms)
    emit(emit, first, std::min(a.size(), first + hist::kGroupAtoms), hist::kGroupAtoms);

  // The ordered atoms are the packed ones (halving groups reorders inside
  // them); keys keep the input index.
  out.a_order.resize(a.size());
#pragma omp parallel for schedule(static)
  for (std::size_t s = 0; s < a.size(); ++s) out.a_order[s] = std::uint32_t(pts[s].key);
  out.a = std::move(pts);
  if (!triangle) {
    // j atoms in k-d order too: a shell's atoms, gathered by the kernel in
    // list order, then lie close in memory whatever order the block came in.
    out.b = split.pack(b);
#pragma omp parallel
#pragma omp single
    bisect(out.b, 0, out.b.size(), hist::kGroupAtoms);
  }
  return out;
}

void add_fast_bins(const std::vector<FastBin>& bins, double weight, PairHistogram& hist) {
  const std::size_t sub = hist::kSubBins;
  const double dr = hist.bin_width, q_unit = std::ldexp(1.0, -hist::kQBits);
  for (std::size_t s = 0; s < bins.size(); ++s) {
    const FastBin& f = bins[s];
    if (f.count == 0) continue;
    const std::size_t k = s / sub;
    if (k >= hist.count.size()) fail("add_fast_bins: histogram has fewer bins than the device result");
    const double n = double(f.count);
    // Offsets e = δ' − ½ in the sub-bin, δ' read as the midpoint of its
    // quantum: Σe = (Σq + n/2)·2^-10 − n/2. The sub-bin's centre sits at c
    // bins from the bin's, so δ/Δr = c + e/kSubBins.
    const double sum_e = (double(f.sum) + 0.5 * n) * q_unit - 0.5 * n;
    const double mu = std::clamp(sum_e / n, -0.5, 0.5), spread = 0.5 - std::abs(mu);
    const double sum_e2 = n * (mu * mu + spread * spread / 3);  // Σe² ∈ [nμ², n/4]: an even spread about μ
    const double c = (double(s % sub) + 0.5) / double(sub) - 0.5, inv_sub = 1.0 / double(sub);
    hist.count[k] += weight * n;
    hist.sum_d[k] += weight * dr * (n * c + sum_e * inv_sub);
    hist.sum_d2[k] += weight * dr * dr * (n * c * c + 2 * c * sum_e * inv_sub + sum_e2 * inv_sub * inv_sub);
  }
}

}  // namespace nanoscatter::debye
