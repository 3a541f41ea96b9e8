// DebyePlan's validation, species grouping and device dispatch (the parts
// that need no GPU), and the PDF of a finite particle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "debye/dispatch.hpp"
#include "debye/species.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/debye.hpp"
#include "nanoscatter/debye_pdf.hpp"
#include "nanoscatter/device.hpp"
#include "nanoscatter/error.hpp"
#include "structure/species_split.hpp"
#include "test_util.hpp"

using namespace nanoscatter;

namespace {

Atom atom(const std::string& element, Vec3 p, int charge = 0, double b = 0, double occupancy = 1) {
  Atom a;
  a.element = element;
  a.charge = charge;
  a.position = p;
  a.b_iso = b;
  a.occupancy = occupancy;
  return a;
}

std::string error_field(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.where().field;
  }
  return "no error";
}

}  // namespace

TEST(DebyeSpecies, GroupsByElementChargeAndB) {
  Structure s;
  s.atoms = {atom("Fe", {0, 0, 0}, 2), atom("O", {1, 0, 0}, -2), atom("Fe", {2, 0, 0}, 3),
             atom("Fe", {3, 0, 0}, 2), atom("O", {4, 0, 0}, -2, 0.5), atom("Ni", {5, 0, 0}, 0, 0, 0.0)};
  const auto g = debye::group_by_species(s);
  // Ni has occupancy 0 and is left out; O comes with two B values.
  EXPECT_EQ(g.atom_count, 5u);
  EXPECT_EQ(g.labels, (std::vector<std::string>{"Fe2+", "O@B=0", "Fe3+", "O@B=0.5"}));
  EXPECT_EQ(g.blocks[0].size(), 2u);
  EXPECT_EQ(debye::pair_label(g, 0, 2), "Fe2+-Fe3+");
  EXPECT_DOUBLE_EQ(g.total_weight(), 5.0);

  Structure plain;
  plain.atoms = {atom("Co", {0, 0, 0}, 2), atom("O", {1, 0, 0}, -2)};
  EXPECT_EQ(debye::group_by_species(plain).labels, (std::vector<std::string>{"Co", "O"}));
}

// AtomOrder::input keeps each block in the structure's order (the GPU
// histogram orders blocks itself); spatial puts them in Morton order, here
// the reverse of the input along x. Plans take input order only for a GPU
// histogram whose blocks are not cut.
TEST(DebyeSpecies, AtomOrderInputKeepsTheStructuresOrder) {
  Structure s;
  for (int k = 0; k < 6; ++k) s.atoms.push_back(atom("Co", {double(5 - k), 0, 0}));
  const auto input = debye::group_by_species(s, debye::AtomOrder::input);
  const auto spatial = debye::group_by_species(s, debye::AtomOrder::spatial);
  EXPECT_EQ(input.blocks[0].x, (std::vector<double>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(spatial.blocks[0].x, (std::vector<double>{0, 1, 2, 3, 4, 5}));

  DebyeOptions gpu_hist;
  gpu_hist.method = DebyeMethod::histogram;
  gpu_hist.compute.device = Device::gpu;
  EXPECT_EQ(debye::atom_order_for(gpu_hist, 1000), debye::AtomOrder::input);
  EXPECT_EQ(debye::atom_order_for(gpu_hist, std::size_t(1) << 23), debye::AtomOrder::spatial);
  DebyeOptions cpu_hist = gpu_hist;
  cpu_hist.compute.device = Device::cpu;
  EXPECT_EQ(debye::atom_order_for(cpu_hist, 1000), debye::AtomOrder::spatial);
  DebyeOptions gpu_exact = gpu_hist;
  gpu_exact.method = DebyeMethod::exact;
  EXPECT_EQ(debye::atom_order_for(gpu_exact, 1000), debye::AtomOrder::spatial);
}

TEST(DebyeSpecies, RejectsBadAtoms) {
  Structure empty;
  EXPECT_EQ(error_field([&] { debye::group_by_species(empty); }), "structure");
  Structure s;
  s.atoms = {atom("Fe", {0, 0, 0}), atom("Fe", {NAN, 0, 0})};
  EXPECT_EQ(error_field([&] { debye::group_by_species(s); }), "atom 2");
  s.atoms[1] = atom("Fe", {1, 0, 0}, 0, 0, 1.5);
  EXPECT_EQ(error_field([&] { debye::group_by_species(s); }), "atom 2");
  s.atoms[1] = atom("Fe", {1, 0, 0}, 0, -1.0);
  EXPECT_EQ(error_field([&] { debye::group_by_species(s); }), "atom 2");
  // The message says what is wrong (one rule set decides and words it).
  EXPECT_NE(test::error_of([&] { debye::group_by_species(s); }).find("B = -1"), std::string::npos);
  s.atoms[1] = atom("Fe", {1, 0, 0}, 0, 0, 1.5);
  EXPECT_NE(test::error_of([&] { debye::group_by_species(s); }).find("occupancy 1.5"), std::string::npos);
  s.atoms[1] = atom("Fe", {INFINITY, 0, 0});
  EXPECT_NE(test::error_of([&] { debye::group_by_species(s); }).find("position is not finite"), std::string::npos);
  s.atoms[1] = atom("Fe", {1, 0, 0}, 0, 0, 0.0);
  s.atoms[0].occupancy = 0;
  EXPECT_EQ(error_field([&] { debye::group_by_species(s); }), "structure");
}

// split_by_species over 10⁵ atoms: the lists keep the structure's order,
// species come in order of first appearance (a third species first appears
// near the end), occupancy-0 atoms are left out, and of two bad atoms the
// error names the first.
TEST(DebyeSpecies, SplitKeepsOrderAndNamesTheFirstBadAtom) {
  Structure s;
  const std::size_t n = 100000;
  // Species 0 = O, 1 = Co, 2 = Ni (first seen at atom 90,006); every 11th atom at occupancy 0.
  const auto species_of = [](std::size_t i) { return i >= 90000 && i % 7 == 0 ? 2 : i % 3 == 0 ? 0 : 1; };
  const auto empty = [](std::size_t i) { return i % 11 == 5; };
  const char* names[3] = {"O", "Co", "Ni"};
  for (std::size_t i = 0; i < n; ++i)
    s.atoms.push_back(atom(names[species_of(i)], {double(i), 0, 0}, 0, 0, empty(i) ? 0.0 : 1.0));
  const SpeciesSplit g = split_by_species(s);
  ASSERT_EQ(g.species.size(), 3u);
  EXPECT_EQ(g.species[0].element, "O");
  EXPECT_EQ(g.species[1].element, "Co");
  EXPECT_EQ(g.species[2].element, "Ni");
  std::vector<std::vector<double>> expect(3);
  for (std::size_t i = 0; i < n; ++i)
    if (!empty(i)) expect[std::size_t(species_of(i))].push_back(double(i));
  std::size_t total = 0;
  for (std::size_t m = 0; m < 3; ++m) {
    EXPECT_EQ(g.atoms[m].x, expect[m]) << "species " << m;
    total += expect[m].size();
  }
  EXPECT_EQ(g.atom_count, total);
  s.atoms[70001].position.y = NAN;
  s.atoms[40000].occupancy = 2.0;  // the one reported
  EXPECT_EQ(error_field([&] { split_by_species(s); }), "atom 40001");
}

TEST(DebyePlan, OptionErrorsNameTheOption) {
  Structure s;
  s.atoms = {atom("Au", {0, 0, 0}), atom("Au", {2.9, 0, 0})};
  DebyeOptions o;
  o.method = DebyeMethod::histogram;
  o.bin_width = 0;
  EXPECT_EQ(error_field([&] { DebyePlan(s, o); }), "bin_width");
  o.bin_width = -1e-3;
  EXPECT_EQ(error_field([&] { DebyePlan(s, o); }), "bin_width");
  EXPECT_EQ(error_field([&] { DebyePlan(Structure{}, DebyeOptions{}); }), "structure");
  EXPECT_EQ(error_field([&] { DebyePlan(s, DebyeOptions{}).execute({0.1, -0.2}); }), "q");
  EXPECT_EQ(error_field([] { parse_debye_method("fast"); }), "method");
  EXPECT_EQ(parse_debye_method("histogram"), DebyeMethod::histogram);
  // The GPU histogram's bin layout: parsed and checked once, here.
  EXPECT_EQ(parse_histogram_mode("precise"), HistogramMode::precise);
  EXPECT_EQ(parse_histogram_mode("fast"), HistogramMode::fast);
  EXPECT_EQ(error_field([] { parse_histogram_mode("exact"); }), "histogram_mode");
  EXPECT_EQ(DebyeOptions{}.histogram_mode, HistogramMode::precise);
  o.bin_width = 1e-3;
  o.histogram_mode = static_cast<HistogramMode>(7);
  EXPECT_EQ(error_field([&] { DebyePlan(s, o); }), "histogram_mode");
}

// (h) Device dispatch without a GPU: asking for one is a clear error naming
// --device, both in the plan and through select_device.
TEST(DebyePlan, GpuWithoutCudaDeviceIsAClearError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present (tests/gpu cover it)";
  Structure s;
  s.atoms = {atom("Au", {0, 0, 0}), atom("Au", {2.9, 0, 0})};
  DebyeOptions o;
  o.compute.device = Device::gpu;
  try {
    DebyePlan plan(s, o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().field, "device");
    EXPECT_NE(std::string(e.what()).find("gpu requested"), std::string::npos) << e.what();
  }
  o.method = DebyeMethod::histogram;
  EXPECT_EQ(error_field([&] { DebyePlan(s, o); }), "device");
  EXPECT_EQ(error_field([] { select_device(DeviceRequest::gpu); }), "device");
}

// Moving the plan keeps it usable; execute() is const and repeatable.
TEST(DebyePlan, MoveAndRepeat) {
  Structure s;
  s.atoms = {atom("Cu", {0, 0, 0}), atom("Cu", {2.55, 0, 0}), atom("Cu", {0, 2.55, 0})};
  DebyePlan a(s, DebyeOptions{});
  const auto q = uniform_q_grid(0.0, 5.0, 11);
  const auto first = a.execute(q);
  DebyePlan b(std::move(a));
  EXPECT_EQ(b.execute(q).intensity, first.intensity);
  EXPECT_EQ(first.atom_count, 3u);
  EXPECT_TRUE(first.partials.empty());
  // Q = 0: I = (Σ f)² = 9 f(0)².
  EXPECT_NEAR(first.intensity[0], 9 * std::pow(xray_f0("Cu", 0, 0), 2), 1e-10);
}

// A mutable plan: after set_factors / set_radiation it gives what a new plan
// with those options gives, without summing the pairs again on the same Q
// grid; after set_structure, the new atoms' result; in histogram mode the
// PDF comes from the plan's own histograms (made once).
TEST(DebyePlan, ChangedFactorsReuseThePairSums) {
  Structure s;
  s.atoms = {atom("Fe", {0, 0, 0}, 0, 0.4), atom("Fe", {2.5, 0.3, 0}, 0, 0.4), atom("O", {0, 2.1, 0.2}, 0, 0.7),
             atom("O", {1.2, 1.1, 1.9}, 0, 0.7)};
  const auto q = uniform_q_grid(0.0, 8.0, 41);
  for (const DebyeMethod method : {DebyeMethod::exact, DebyeMethod::histogram}) {
    SCOPED_TRACE(method == DebyeMethod::exact ? "exact" : "histogram");
    DebyeOptions o;
    o.method = method;
    o.partials = true;
    DebyePlan plan(s, o);
    plan.execute(q);
    FactorOptions anomalous;
    anomalous.energy_kev = 7.2;  // near the Fe K edge: f', f'' matter
    anomalous.debye_waller = false;
    plan.set_factors(anomalous);
    const auto changed = plan.execute(q);
    DebyeOptions fresh_options = o;
    fresh_options.factors = anomalous;
    const auto fresh = DebyePlan(s, fresh_options).execute(q);
    for (std::size_t k = 0; k < q.size(); ++k) EXPECT_NEAR(changed.intensity[k], fresh.intensity[k], 1e-12 * fresh.intensity[k]);
    EXPECT_EQ(plan.stats().pair_sum_runs, 1);  // the same grid: no new pair sums
    plan.set_factors(FactorOptions{});
    plan.set_radiation(Radiation::neutron);
    DebyeOptions neutron = o;
    neutron.radiation = Radiation::neutron;
    EXPECT_EQ(plan.execute(q).intensity, DebyePlan(s, neutron).execute(q).intensity);
    EXPECT_EQ(plan.stats().pair_sum_runs, 1);
    plan.execute(uniform_q_grid(0.5, 6.0, 17));  // a new grid sums again
    EXPECT_EQ(plan.stats().pair_sum_runs, 2);
    // Anomalous terms are X-ray only: refused, and the plan unchanged.
    EXPECT_EQ(error_field([&] { plan.set_factors(anomalous); }), "energy");
    EXPECT_EQ(plan.options().radiation, Radiation::neutron);

    Structure moved = s;
    moved.atoms[1].position = {2.7, 0.3, 0.1};
    plan.set_structure(moved);
    EXPECT_EQ(plan.execute(q).intensity, DebyePlan(moved, neutron).execute(q).intensity);
    EXPECT_EQ(plan.stats().histogram_builds, method == DebyeMethod::histogram ? 2 : 0);

    const PdfOptions grid{0.05, 6.0};
    const PdfResult from_plan = pair_distribution(plan, grid), alone = pair_distribution(moved, neutron, grid);
    EXPECT_EQ(from_plan.rdf, alone.rdf);
    EXPECT_EQ(plan.stats().histogram_builds, method == DebyeMethod::histogram ? 2 : 0);
  }
}

// PDF of an fcc Au sphere (R = 14 Å): ∫R(r)dr over the first shell is twice
// the nearest-neighbour pair count over N (counted directly here), ∫R dr
// over all r is N − 1, the equivalent-sphere density from R_g is the
// crystal's 4/a³ within 3 %, and G(r) oscillates about 0 (its mean over
// 3–20 Å is small next to its first peak). Sums are exact up to float64
// rounding (1e-12); the density is a geometric approximation (3 %: a
// lattice sphere of ~500 atoms has a stepped surface).
TEST(DebyePdf, GoldSphereNormalisation) {
  LatticeOptions lattice;
  lattice.type = LatticeType::fcc;
  lattice.a = 4.078;
  lattice.elements = {"Au"};
  const Structure s = cut_crystal(make_lattice(lattice), Sphere{14.0});
  const double n = double(s.atoms.size());
  DebyeOptions o;
  const PdfResult pdf = pair_distribution(s, o, PdfOptions{0.01, 0});
  double total = 0, first = 0;
  for (std::size_t k = 0; k < pdf.r.size(); ++k) {
    total += pdf.rdf[k] * 0.01;
    if (pdf.r[k] < 3.3) first += pdf.rdf[k] * 0.01;
  }
  double neighbours = 0;
  for (std::size_t i = 0; i < s.atoms.size(); ++i)
    for (std::size_t j = i + 1; j < s.atoms.size(); ++j)
      if (norm(s.atoms[i].position - s.atoms[j].position) < 3.3) neighbours += 1;
  EXPECT_NEAR(total, n - 1, 1e-12 * n);
  EXPECT_NEAR(first, 2 * neighbours / n, 1e-12 * n);
  EXPECT_LT(first, 12.0);  // surface atoms have fewer than 12 neighbours
  EXPECT_GT(first, 9.0);
  EXPECT_NEAR(pdf.number_density, 4 / std::pow(4.078, 3), 0.03 * 4 / std::pow(4.078, 3));
  // First peak (largest R below 3.5 Å; R grows as r² further out) at
  // a/√2 = 2.884 Å, within one 0.01 Å bin.
  const auto last = std::find_if(pdf.r.begin(), pdf.r.end(), [](double r) { return r > 3.5; }) - pdf.r.begin();
  const auto peak = std::max_element(pdf.rdf.begin(), pdf.rdf.begin() + last) - pdf.rdf.begin();
  EXPECT_NEAR(pdf.r[peak], 4.078 / std::sqrt(2.0), 0.01);
  double mean = 0, count = 0, peak_g = 0;
  for (std::size_t k = 0; k < pdf.r.size(); ++k) {
    peak_g = std::max(peak_g, pdf.g[k]);
    if (pdf.r[k] > 3 && pdf.r[k] < 20) mean += pdf.g[k], count += 1;
  }
  std::printf("Au sphere N = %.0f: first-shell coordination %.3f, rho0 %.5f (crystal %.5f), mean G(3–20 Å) "
              "%.3e vs peak %.3f\n", n, first, pdf.number_density, 4 / std::pow(4.078, 3), mean / count, peak_g);
  EXPECT_LT(std::abs(mean / count), 0.02 * peak_g);
  EXPECT_EQ(error_field([&] { pair_distribution(s, o, PdfOptions{0, 0}); }), "pdf_dr");
  EXPECT_EQ(error_field([&] { pair_distribution(s, o, PdfOptions{0.01, -1}); }), "pdf_rmax");
}
