// Fast pair-histogram layout (histogram_layout.hpp).
#include "debye/histogram_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include <omp.h>

#include "nanoscatter/error.hpp"

namespace nanoscatter::debye {

namespace {

using hist::GroupGeometry;
using hist::PackedAtom;
using Box = AxisBox;

// Largest distance from p to any point of the box.
double farthest(const Box& box, const double p[3]) {
  double s = 0;
  for (int d = 0; d < 3; ++d) {
    const double e = std::max(std::abs(p[d] - box.lo[d]), std::abs(p[d] - box.hi[d]));
    s += e * e;
  }
  return std::sqrt(s);
}

int longest_axis(const Box& box) {
  int axis = 0;
  for (int d = 1; d < 3; ++d)
    if (box.hi[d] - box.lo[d] > box.hi[axis] - box.lo[axis]) axis = d;
  return axis;
}

// The k-d order is found on 16-byte records (float coordinates in bin
// units relative to the layout's origin, key = index in the block): half
// the bytes of a PackedAtom to move per cut, and the cuts are memory-bound.
// The conversion to float is monotone, so it only adds ties (atoms within
// ~1e-7 of the particle's size of each other along an axis); the
// PackedAtoms (float64) are gathered in the final order.
struct KdRecord {
  float x, y, z;
  std::uint32_t key;
};

double coord(const KdRecord& a, int axis) { return axis == 0 ? a.x : axis == 1 ? a.y : a.z; }
double coord(const PackedAtom& a, int axis) { return axis == 0 ? a.x : axis == 1 ? a.y : a.z; }

// Order along an axis. Atoms on one lattice plane tie (thousands of them
// in a crystal), and which of them a cut sends to each side depends on the
// order they come in; every step below is deterministic in that order and
// independent of the thread count, so the groups (and the kernel's integer
// sums) are too.
struct AxisLess {
  int axis;
  template <class Rec>
  bool operator()(const Rec& u, const Rec& v) const {
    return coord(u, axis) < coord(v, axis);
  }
};

// Ranges at least this long are cut with all threads (below, one range per
// task); the top cuts of a 5·10⁵-atom block cost ~5 ms each on one core
// and would otherwise hold the device's first kernel back.
constexpr std::size_t kParallelAtoms = std::size_t(1) << 15;
constexpr int kSelectBuckets = 4096;  // coordinate buckets of the parallel selection

template <class Rec>
Box range_box(const Rec* pts, std::size_t lo, std::size_t hi) {
  Box box;
  for (std::size_t s = lo; s < hi; ++s) box.include(pts[s].x, pts[s].y, pts[s].z);
  return box;
}

Box range_box_parallel(const KdRecord* pts, std::size_t lo, std::size_t hi) {
  Box box;
  double x0 = box.lo[0], y0 = box.lo[1], z0 = box.lo[2], x1 = box.hi[0], y1 = box.hi[1], z1 = box.hi[2];
#pragma omp parallel for schedule(static) reduction(min : x0, y0, z0) reduction(max : x1, y1, z1)
  for (std::size_t s = lo; s < hi; ++s) {
    x0 = std::min(x0, double(pts[s].x)), x1 = std::max(x1, double(pts[s].x));
    y0 = std::min(y0, double(pts[s].y)), y1 = std::max(y1, double(pts[s].y));
    z0 = std::min(z0, double(pts[s].z)), z1 = std::max(z1, double(pts[s].z));
  }
  box.lo[0] = x0, box.lo[1] = y0, box.lo[2] = z0, box.hi[0] = x1, box.hi[1] = y1, box.hi[2] = z1;
  return box;
}

void copy_range(const KdRecord* from, KdRecord* to, std::size_t lo, std::size_t hi) {
#pragma omp parallel for schedule(static) if (hi - lo >= kParallelAtoms)
  for (std::size_t s = lo; s < hi; ++s) to[s] = from[s];
}

// The two halves of a cut range and their boxes.
struct Cut {
  Box left, right;
};

// Cuts src[lo, hi) at mid in AxisLess order into dst[lo, hi) (nth_element's
// contract) on all threads: a pass counts the atoms per coordinate bucket
// (per thread), the bucket holding rank mid is found, and a second pass
// moves the atoms below it, in it and above it to their places, each class
// in its former order (a stable partition: thread t writes its chunk after
// those of threads < t) and notes each class's box. The search goes on
// inside that bucket alone, and ends with nth_element once it is short or
// flat. The result depends on the atoms' order only, not on the number of
// threads. src[lo, hi) is left undefined.
Cut select_parallel(KdRecord* src, KdRecord* dst, std::size_t lo, std::size_t mid, std::size_t hi, int axis,
                    double cmin, double cmax) {
  const std::size_t threads = std::size_t(std::max(1, omp_get_max_threads()));
  std::vector<std::size_t> counts(threads * kSelectBuckets), offsets(threads * 3);
  std::vector<Box> boxes(threads * 3);
  Cut cut;
  while (true) {
    const double scale = kSelectBuckets / (cmax - cmin);
    if (hi - lo < kParallelAtoms || !(cmax > cmin) || !std::isfinite(scale)) {
      copy_range(src, dst, lo, hi);
      std::nth_element(dst + lo, dst + mid, dst + hi, AxisLess{axis});
      cut.left.include(range_box(dst, lo, mid));
      cut.right.include(range_box(dst, mid, hi));
      return cut;
    }
    // Monotone in the coordinate: equal coordinates share a bucket.
    const auto bucket = [&](const KdRecord& p) {
      return std::min(kSelectBuckets - 1, int((coord(p, axis) - cmin) * scale));
    };
    const std::size_t n = hi - lo, first = lo;
    const auto chunk = [&](std::size_t t) { return first + n * t / threads; };
    std::fill(counts.begin(), counts.end(), 0);
#pragma omp parallel for schedule(static, 1)
    for (std::size_t t = 0; t < threads; ++t) {
      std::size_t* c = counts.data() + t * kSelectBuckets;
      for (std::size_t s = chunk(t); s < chunk(t + 1); ++s) ++c[bucket(src[s])];
    }
    // The bucket k of rank mid: below = atoms in buckets < k, within = in k.
    std::size_t below = 0, within = 0;
    int k = 0;
    for (;; ++k) {
      within = 0;
      for (std::size_t t = 0; t < threads; ++t) within += counts[t * kSelectBuckets + std::size_t(k)];
      if (lo + below + within > mid) break;
      below += within;
    }
    // Where each thread's atoms go: [lo, lo+below) | [.., +within) | the rest.
    std::size_t at[3] = {lo, lo + below, lo + below + within};
    for (std::size_t t = 0; t < threads; ++t) {
      std::size_t mine[3] = {0, counts[t * kSelectBuckets + std::size_t(k)], 0};
      for (int b = 0; b < k; ++b) mine[0] += counts[t * kSelectBuckets + std::size_t(b)];
      mine[2] = chunk(t + 1) - chunk(t) - mine[0] - mine[1];
      for (int r = 0; r < 3; ++r) offsets[t * 3 + std::size_t(r)] = at[r], at[r] += mine[r];
    }
#pragma omp parallel for schedule(static, 1)
    for (std::size_t t = 0; t < threads; ++t) {
      // Cursors and boxes in locals: neighbouring threads' entries share
      // cache lines, and writing them per atom would bounce the lines.
      std::size_t at_t[3] = {offsets[t * 3], offsets[t * 3 + 1], offsets[t * 3 + 2]};
      Box box_t[3];
      for (std::size_t s = chunk(t); s < chunk(t + 1); ++s) {
        const KdRecord p = src[s];
        const int b = bucket(p), c = b < k ? 0 : b == k ? 1 : 2;
        dst[at_t[c]++] = p;
        box_t[c].include(p.x, p.y, p.z);
      }
      for (int c = 0; c < 3; ++c) boxes[t * 3 + std::size_t(c)] = box_t[c];
    }
    Box middle;
    for (std::size_t t = 0; t < threads; ++t) {
      cut.left.include(boxes[t * 3]);
      middle.include(boxes[t * 3 + 1]);
      cut.right.include(boxes[t * 3 + 2]);
    }
    lo += below;
    hi = lo + within;
    cmin = middle.lo[axis], cmax = middle.hi[axis];
    copy_range(dst, src, lo, hi);  // the bucket is searched again from src
  }
}

// Where [lo, hi) is cut: a multiple of g near the middle.
std::size_t cut_point(std::size_t lo, std::size_t hi, std::size_t g) {
  const std::size_t groups = (hi - lo + g - 1) / g;
  return lo + (groups / 2) * g;
}

// Orders pts[lo, hi) so that consecutive runs of g are compact: split at a
// multiple of g near the middle, along the longest axis of the range's box
// (a k-d tree whose leaves are the groups; boxes stay within a factor ~2 of
// cubes, unlike runs of a space-filling curve, which can straddle two
// distant cells). One thread.
template <class Rec>
void bisect(Rec* pts, std::size_t lo, std::size_t hi, std::size_t g) {
  while (hi - lo > g) {
    const int axis = longest_axis(range_box(pts, lo, hi));
    const std::size_t mid = cut_point(lo, hi, g);
    std::nth_element(pts + lo, pts + mid, pts + hi, AxisLess{axis});
    bisect(pts, lo, mid, g);
    lo = mid;
  }
}

// bisect over the whole list: ranges of kParallelAtoms or more are cut one
// after another, each with all threads (select_parallel, from one buffer
// into the other, level by level; which ranges those are depends on their
// sizes only), then the shorter ranges go to one task each, which first
// brings its range back into pts where it lies in the other buffer.
void kd_order(UninitVector<KdRecord>& pts, std::size_t g) {
  struct Range {
    std::size_t lo, hi;
    Box box;
  };
  struct Rest {
    std::size_t lo, hi;
    bool in_tmp;
  };
  const std::size_t n = pts.size();
  std::unique_ptr<KdRecord[]> tmp;  // not value-initialised: first touched by the threads that fill it
  KdRecord* buffer[2] = {pts.data(), nullptr};
  int at = 0;  // the buffer holding this level's ranges
  std::vector<Range> level;
  std::vector<Rest> rest;
  if (n >= kParallelAtoms)
    level.push_back({0, n, range_box_parallel(pts.data(), 0, n)});
  else
    rest.push_back({0, n, false});
  while (!level.empty()) {
    std::vector<Range> next;
    for (const Range& r : level) {
      if (r.hi - r.lo < kParallelAtoms) {
        rest.push_back({r.lo, r.hi, at == 1});
        continue;
      }
      if (!tmp) tmp.reset(new KdRecord[n]), buffer[1] = tmp.get();
      const int axis = longest_axis(r.box);
      const std::size_t mid = cut_point(r.lo, r.hi, g);
      const Cut cut = select_parallel(buffer[at], buffer[1 - at], r.lo, mid, r.hi, axis, r.box.lo[axis], r.box.hi[axis]);
      next.push_back({r.lo, mid, cut.left});
      next.push_back({mid, r.hi, cut.right});
    }
    level = std::move(next);
    at = 1 - at;
  }
  KdRecord* const out = pts.data();
  const KdRecord* const other = tmp.get();
#pragma omp parallel
#pragma omp single
  for (const Rest r : rest) {
#pragma omp task default(none) shared(out, other) firstprivate(r, g)
    {
      if (r.in_tmp) std::copy(other + r.lo, other + r.hi, out + r.lo);
      bisect(out, r.lo, r.hi, g);
    }
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
  // The block's records in its order (keys = indices), on all threads.
  UninitVector<KdRecord> records(const AtomBlock& b) const {
    UninitVector<KdRecord> out(b.size());
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < b.size(); ++i) {
      const PackedAtom p = pack(b, i);
      out[i] = {float(p.x), float(p.y), float(p.z), std::uint32_t(i)};
    }
    return out;
  }
  // The block's atoms packed in the records' order, on all threads.
  PackedAtoms gather(const AtomBlock& b, const UninitVector<KdRecord>& order) const {
    PackedAtoms out(order.size());
#pragma omp parallel for schedule(static)
    for (std::size_t s = 0; s < order.size(); ++s) out[s] = pack(b, order[s].key);
    return out;
  }
  // The block in k-d order (groups of g).
  PackedAtoms kd_packed(const AtomBlock& b, std::size_t g) const {
    UninitVector<KdRecord> recs = records(b);
    kd_order(recs, g);
    return gather(b, recs);
  }
};

}  // namespace

namespace {
// A block's atoms grouped by weight (in order of first appearance, each
// group in the block's order), or nothing when there are more than
// kMaxWeightClasses distinct weights.
std::vector<AtomBlock> weight_classes(const AtomBlock& block) {
  std::vector<AtomBlock> classes;
  for (std::size_t i = 0; i < block.size(); ++i) {
    std::size_t c = 0;
    while (c < classes.size() && classes[c].w[0] != block.w[i]) ++c;
    if (c == classes.size()) {
      if (classes.size() == kMaxWeightClasses) return {};
      classes.emplace_back();
    }
    classes[c].x.push_back(block.x[i]);
    classes[c].y.push_back(block.y[i]);
    classes[c].z.push_back(block.z[i]);
    classes[c].w.push_back(block.w[i]);
  }
  return classes;
}
}  // namespace

bool FastParts::split(const AtomBlock& a, const AtomBlock& b, PairSet set) {
  parts_.clear();
  const bool triangle = set == PairSet::triangle;
  if (uniform_weights(a) && (triangle || uniform_weights(b))) {
    parts_.push_back({&a, triangle ? &a : &b, set});
    return true;
  }
  classes_a_ = weight_classes(a);
  classes_b_ = triangle ? std::vector<AtomBlock>{} : weight_classes(b);
  if (classes_a_.empty() || (!triangle && classes_b_.empty())) return false;
  for (std::size_t i = 0; i < classes_a_.size(); ++i) {
    if (triangle) {
      parts_.push_back({&classes_a_[i], &classes_a_[i], PairSet::triangle});
      for (std::size_t j = i + 1; j < classes_a_.size(); ++j)
        parts_.push_back({&classes_a_[i], &classes_a_[j], PairSet::rectangle});
    } else {
      for (const AtomBlock& bj : classes_b_) parts_.push_back({&classes_a_[i], &bj, PairSet::rectangle});
    }
  }
  return true;
}

bool uniform_weights(const AtomBlock& block) {
  const std::size_t n = block.size();
  const double* w = block.w.data();
  bool same = true;
#pragma omp parallel for schedule(static) if (n >= kParallelAtoms) reduction(&& : same)
  for (std::size_t i = 1; i < n; ++i) same = same && w[i] == w[0];
  return same;
}

std::size_t histogram_bins_needed(const AtomBlock& a, const AtomBlock& b, PairSet set, double bin_width) {
  return std::size_t(std::floor(pair_diagonal(a, b, set) / bin_width)) + 2;
}

double pair_diagonal(const AtomBlock& a, const AtomBlock& b, PairSet set) {
  Box box = bounding_box(a);
  if (set == PairSet::rectangle) box.include(bounding_box(b));
  return box.diagonal();
}

FastHistogramLayout make_fast_layout(const AtomBlock& a, const AtomBlock& b, PairSet set, double bin_width,
                                     int window_bins, hist::BinWords words) {
  const std::size_t group_atoms = std::size_t(hist::group_atoms(words));
  const bool triangle = set == PairSet::triangle;
  if (window_bins < 1024) fail("make_fast_layout: window of ", window_bins, " bins, fewer than 1024");
  const Box abox = bounding_box(a), bbox = triangle ? abox : bounding_box(b);
  Box box = abox;
  box.include(bbox);
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

  // i atoms ordered so that runs of group_atoms are compact groups.
  PackedAtoms pts = split.kd_packed(a, group_atoms);

  // Groups: centre of their box, radius (+1 bin of margin), and shells sized
  // so that a shell's pairs fit the window: width + 2·rho + 8 ≤ W (the
  // kernel does not check it per pair, histogram_pair_math.hpp). A group too
  // wide for a window with shells of at least W/8 (loose atoms, odd pieces
  // at a surface), or too wide for the shells that kMaxShells allows, is
  // halved again.
  Box jbox = bbox;
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
    const double d_max = farthest(jbox, c) + 2.0;
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
  const auto final = [&](const GroupGeometry& geo) {
    return (geo.rho <= rho_fits && fits(geo)) || geo.count == 1;
  };
  const auto keep = [&](const GroupGeometry& geo) {
    if (!fits(geo))
      fail("make_fast_layout: a window of ", window_bins, " bins cannot hold the shells of ", diag_bins,
           " bins of distances (", hist::kMaxShells, " shells at most)");
    out.groups.push_back(geo);
  };
  const auto emit = [&](auto&& self, std::size_t first, std::size_t last, std::size_t size) -> void {
    const GroupGeometry geo = geometry(first, last);
    if (final(geo)) return keep(geo);
    const std::size_t half = (size + 1) / 2;
    bisect(pts.data(), first, last, half);
    for (std::size_t s = first; s < last; s += half) self(self, s, std::min(last, s + half), half);
  };
  // Every run of group_atoms on all threads; the few that must be halved
  // again (each only reorders its own atoms) follow in order.
  const std::size_t g = group_atoms, runs = (a.size() + g - 1) / g;
  std::vector<GroupGeometry> run_geo(runs);
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < runs; ++r) run_geo[r] = geometry(r * g, std::min(a.size(), (r + 1) * g));
  out.groups.reserve(runs);
  for (std::size_t r = 0; r < runs; ++r) {
    if (final(run_geo[r]))
      keep(run_geo[r]);
    else
      emit(emit, r * g, std::min(a.size(), (r + 1) * g), g);
  }

  // The ordered atoms are the packed ones (halving groups reorders inside
  // them); keys keep the input index.
  out.a_order.resize(a.size());
#pragma omp parallel for schedule(static)
  for (std::size_t s = 0; s < a.size(); ++s) out.a_order[s] = std::uint32_t(pts[s].key);
  out.a = std::move(pts);
  if (!triangle) {
    // j atoms in k-d order too: a shell's atoms, gathered by the kernel in
    // list order, then lie close in memory whatever order the block came in.
    out.b = split.kd_packed(b, group_atoms);
  }
  return out;
}

void add_fast_bins(std::span<const FastBin> bins, hist::BinWords words, double weight, PairHistogram& hist) {
  const std::size_t sub = hist::kSubBins, nk = (bins.size() + sub - 1) / sub;
  const bool one_word = words == hist::BinWords::one;
  const double dr = hist.bin_width,
               offset_unit = 1.0 / double(one_word ? hist::kQLevels : hist::kOffsetLevels),
               spread_unit = 1.0 / double(hist::kSpreadScale);
  // Any pairs in kernel bins beyond the histogram's last bin?
  bool beyond = false;
  for (std::size_t s = std::min(bins.size(), hist.count.size() * sub); s < bins.size() && !beyond; ++s)
    beyond = bins[s].count != 0;
  if (beyond) fail("add_fast_bins: histogram has fewer bins than the device result");
  const auto empty = [&](std::size_t s) { return s >= bins.size() || bins[s].count == 0; };
  // Histogram bins on all threads (the last block's are on the critical
  // path: ~1.3 ms per 2.6e5 bins on one core); each takes its sub-bins.
  const std::size_t kmax = std::min(nk, hist.count.size());
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < kmax; ++k) {
    for (std::size_t s = k * sub; s < std::min(bins.size(), (k + 1) * sub); ++s) {
      const FastBin& f = bins[s];
      if (f.count == 0) continue;
      const double n = double(f.count);
      // Offsets e = δ' − ½ in the sub-bin, δ' estimated (unbiased) by
      // q/511 (one word) or qa/2^20 (two words): Σe = Σδ' − n/2.
      const double sum_e = double(f.sum) * offset_unit - 0.5 * n;
      double sum_e2;
      if (one_word) {
        // Σe² ∈ [nμ², n/4]: one distance where the neighbours are empty (a
        // crystal's shell), else an even spread about μ (histogram_pair_math.hpp).
        const double mu = std::clamp(sum_e / n, -0.5, 0.5), spread = 0.5 - std::abs(mu);
        const bool isolated = (s == 0 || empty(s - 1)) && empty(s + 1);
        sum_e2 = n * (mu * mu + (isolated ? 0.0 : spread * spread / 3));
      } else {
        // δ'(1 − δ') = ¼ − e² estimated (unbiased) by q2/2044:
        // Σe² = n/4 − Σδ'(1 − δ'), kept in [(Σe)²/n, n/4], where the truth
        // lies (clamping only moves it towards the truth).
        sum_e2 = std::min(std::max(0.25 * n - double(f.sum2) * spread_unit, sum_e * sum_e / n), 0.25 * n);
      }
      // The sub-bin's centre sits at c bins from the bin's, so δ/Δr = c + e/kSubBins.
      const double c = (double(s % sub) + 0.5) / double(sub) - 0.5, inv_sub = 1.0 / double(sub);
      hist.count[k] += weight * n;
      hist.sum_d[k] += weight * dr * (n * c + sum_e * inv_sub);
      hist.sum_d2[k] += weight * dr * dr * (n * c * c + 2 * c * sum_e * inv_sub + sum_e2 * inv_sub * inv_sub);
    }
  }
}

}  // namespace nanoscatter::debye
