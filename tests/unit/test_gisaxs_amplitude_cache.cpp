// Re-evaluation cost of a GISAXS plan on the CPU pixel loop (issue 21): a
// set_layouts that keeps the particles (drawn edits of the interference,
// density and coupling) gives the image of a fresh plan to 1e-12 and
// computes no amplitude again (Stats::amplitude_pixels unchanged); one
// that changes a particle (a drawn radius of a size distribution) recomputes
// every kind sampled from it and again equals a fresh plan. The cache is
// per kind: in a two-particle sample a drawn radius of one particle
// recomputes that particle's kind only, a value set back is found again,
// mesh tables of unchanged kinds are kept, and a budget of fewer slots than
// kinds leaves the rest uncached. A failure prints the seed.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gisaxs/amplitude_cache.hpp"
#include "gisaxs_reuse_step.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"
#include "property_seed.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

constexpr double kTolerance = 1e-12;  // the same float64 sums in the same order: rounding at most
constexpr int kCases = 4;

GisaxsOptions cpu_options() {
  GisaxsOptions o;
  o.compute.device = Device::cpu;
  o.compute.quiet = true;
  return o;
}

void expect_same_image(const GisaxsResult& got, const GisaxsResult& want) {
  ASSERT_EQ(got.intensity.size(), want.intensity.size());
  double peak = 0;
  for (double v : want.intensity) peak = std::max(peak, std::abs(v));
  for (std::size_t p = 0; p < want.intensity.size(); ++p)
    ASSERT_NEAR(got.intensity[p], want.intensity[p], kTolerance * std::max(std::abs(want.intensity[p]), 1e-9 * peak))
        << "pixel " << p;
}

}  // namespace

TEST(GisaxsPlanReuse, UnchangedParticlesKeepTheirAmplitudesOnDrawnEdits) {
  const std::string path = std::string(NS_TEST_DATA_DIR) + "/fit/spheres_ssca.toml";
  for (int k = 0; k < kCases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    const bool decoupling = uniform(0, 1) < 0.5;  // from the seed: a printed seed replays its case
    SampleDocument doc = SampleDocument::read(path);
    if (decoupling)  // the decoupling approximation (κ must go with the SSCA: one edit)
      doc.set({{"layout[0].mixture", ConfigValue(std::string("decoupling"))},
               {"layout[0].interference.size_spacing_coupling", ConfigValue(0.0)}});
    GisaxsPlan plan(doc.sample(), cpu_options());
    plan.execute();  // a plan executed once keeps no amplitudes
    const std::size_t once = plan.stats().amplitude_pixels;
    EXPECT_EQ(once, plan.pixels().size() * plan.particle_kinds());
    plan.set_layouts(doc.sample().layouts);  // re-evaluated from here: the next execute keeps them
    plan.execute();
    EXPECT_EQ(plan.stats().amplitude_pixels, 2 * once);

    // Interference, density (and the coupling under the SSCA): amplitudes kept.
    doc.set("layout[0].interference.peak_distance", ConfigValue(uniform(12, 40)));
    doc.set("layout[0].interference.pdf.omega", ConfigValue(uniform(1, 10)));
    doc.set("layout[0].density", ConfigValue(uniform(0.001, 0.004)));
    if (!decoupling) doc.set("layout[0].interference.size_spacing_coupling", ConfigValue(uniform(0, 3)));
    plan.set_layouts(doc.sample().layouts);
    expect_same_image(plan.execute(), GisaxsPlan(doc.sample(), cpu_options()).execute());
    EXPECT_EQ(plan.stats().amplitude_pixels, 2 * once) << "amplitudes computed again for an interference change";

    // A particle's size: every amplitude again.
    doc.set("layout[0].particle[0].radius", ConfigValue(uniform(3, 7)));
    plan.set_layouts(doc.sample().layouts);
    expect_same_image(plan.execute(), GisaxsPlan(doc.sample(), cpu_options()).execute());
    EXPECT_EQ(plan.stats().amplitude_pixels, 3 * once);
  }
}

namespace {

using Step = test::ReuseStep;
using test::execute_counting;

const std::string kTwoKinds = std::string(NS_TEST_DATA_DIR) + "/gisaxs/mixture_paracrystal.toml";

}  // namespace

// Issue 21's acceptance on the CPU loop (test::run_two_kinds): a drawn
// radius of one of two kinds recomputes that kind alone — its pixels once —
// and each edit's image is the fresh plan's of the edited sample.
TEST(GisaxsPlanReuse, ChangingOneKindRecomputesThatKindOnly) {
  for (int k = 0; k < kCases; ++k) {
    const auto seed = test::case_seed(k);
    NS_PROPERTY_CASE(seed);
    std::mt19937_64 rng(seed);
    const test::TwoKindsRun run = test::run_two_kinds(cpu_options(), rng);
    const Step& step = run.steps[0];
    EXPECT_EQ(step.pixels, run.pixels);
    for (std::size_t i = 1; i < 3; ++i) EXPECT_EQ(run.steps[i].pixels, 0u) << "edit " << i;
    EXPECT_EQ(run.steps[3].pixels, 2 * run.pixels);
    std::fprintf(stderr, "[two kinds] %s changed: computed kinds {%zu}, reused %zu, amplitude pixels %zu of %zu\n",
                 run.radius.c_str(), step.computed.empty() ? 0 : step.computed.front(), step.reused, step.pixels,
                 2 * run.pixels);
  }
}

// The particles in the other order: each kind finds its amplitudes by its
// description, not by its place.
TEST(GisaxsPlanReuse, ReorderedParticlesKeepTheirAmplitudes) {
  const Sample sample = read_sample(kTwoKinds);
  GisaxsPlan plan(sample, cpu_options());
  plan.set_layouts(sample.layouts);
  plan.execute();
  std::vector<Layout> swapped = sample.layouts;
  std::swap(swapped[0].particles[0], swapped[0].particles[1]);
  plan.set_layouts(swapped);
  GisaxsResult got;
  const Step step = execute_counting(plan, &got);
  EXPECT_TRUE(step.computed.empty());
  EXPECT_EQ(step.reused, 2u);
  Sample edited = sample;
  edited.layouts = swapped;
  edited.validated = false;
  expect_same_image(got, GisaxsPlan(edited, cpu_options()).execute());
}

// set_layouts(sample) takes the layouts only: an edit of the beam or a
// layer is refused, naming the field, rather than ignored.
TEST(GisaxsPlanReuse, SetLayoutsOfASampleRefusesAnotherFrame) {
  SampleDocument doc = SampleDocument::read(kTwoKinds);
  GisaxsPlan plan(doc.sample(), cpu_options());
  const auto message = [&](const std::string& path, const ConfigValue& value) {
    SampleDocument edited = doc;
    edited.set(path, value);
    try {
      plan.set_layouts(edited.sample());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("beam.alpha_i", ConfigValue(0.4)).find("beam.alpha_i"), std::string::npos);
  EXPECT_NE(message("beam.wavelength", ConfigValue(0.12)).find("beam.wavelength"), std::string::npos);
  EXPECT_NE(message("layer[1].material.delta", ConfigValue(7e-6)).find("layer[1].material"), std::string::npos);
  EXPECT_NE(message("detector.alpha_f.bins", ConfigValue(std::int64_t(30))).find("detector"), std::string::npos);
  EXPECT_NO_THROW(plan.set_layouts(doc.sample()));
}

// Mesh tables (precision single on the CPU): a new radius of the cylinder
// keeps the mesh kind's table; a mesh read again (the same vertices and
// triangles, another object) is the same kind.
TEST(GisaxsPlanReuse, MeshTablesOfUnchangedKindsAreKept) {
  Sample sample = read_sample(kTwoKinds);
  ParticleSpec& mesh = sample.layouts[0].particles[1];
  mesh.shape = "mesh";
  mesh.parameters.clear();
  mesh.distributions.clear();
  mesh.mesh = std::make_shared<MeshFormFactor>(box_mesh(8, 6, 5));
  sample.validated = false;
  GisaxsOptions options = cpu_options();
  options.compute.precision = Precision::float32;
  GisaxsPlan plan(sample, options);
  plan.set_layouts(sample.layouts);
  plan.execute();
  EXPECT_EQ(plan.stats().mesh_table_kinds, 1u);
  sample.layouts[0].particles[0].parameters[0] = 4.5;  // the cylinder's radius
  sample.layouts[0].particles[1].mesh = std::make_shared<MeshFormFactor>(box_mesh(8, 6, 5));
  plan.set_layouts(sample.layouts);
  GisaxsResult got;
  const Step step = execute_counting(plan, &got);
  EXPECT_EQ(step.computed, std::vector<std::size_t>{0});
  EXPECT_EQ(plan.stats().mesh_table_kinds, 1u);
  expect_same_image(got, GisaxsPlan(sample, options).execute());
  sample.layouts[0].particles[1].mesh = std::make_shared<MeshFormFactor>(box_mesh(8, 6, 5.5));
  plan.set_layouts(sample.layouts);
  EXPECT_EQ(execute_counting(plan, &got).computed, std::vector<std::size_t>{1});
  EXPECT_EQ(plan.stats().mesh_table_kinds, 2u);
  expect_same_image(got, GisaxsPlan(sample, options).execute());
}

// The budget counts slots of one kind's amplitudes: with room for one,
// the first kind is kept and the second computed on every execute.
TEST(GisaxsAmplitudeCache, KindsBeyondTheBudgetHaveNoSlot) {
  const Sample sample = read_sample(kTwoKinds);
  const std::vector<LayoutPlan> layouts = layout_plans(sample);
  AmplitudeCache cache(100, 100 * sizeof(Complex));
  cache.bind(layouts);
  ASSERT_NE(cache.slot(0), nullptr);
  EXPECT_EQ(cache.slot(1), nullptr);
  EXPECT_FALSE(cache.ready(0));
  cache.mark_filled();
  EXPECT_TRUE(cache.ready(0));
  EXPECT_FALSE(cache.ready(1));
  cache.bind(layouts);  // the same kinds: the slot is found again
  EXPECT_TRUE(cache.ready(0));
  cache.unbind();
  EXPECT_EQ(cache.slot(0), nullptr);
  EXPECT_TRUE(same_amplitude(layouts[0].kinds[0], layout_plans(sample)[0].kinds[0]));
  EXPECT_FALSE(same_amplitude(layouts[0].kinds[0], layouts[0].kinds[1]));
}

// A finite-difference Jacobian (execute_batch, CPU loop): each set moves
// one particle's radius, so each set computes one kind — the base kinds
// are found again after each step — and each image is a fresh plan's.
TEST(GisaxsPlanReuse, JacobianSetsComputeOneKindEach) {
  const Sample sample = read_sample(kTwoKinds);
  GisaxsPlan plan(sample, cpu_options());
  plan.set_layouts(sample.layouts);
  plan.execute();
  std::vector<std::vector<Layout>> sets(2, sample.layouts);
  sets[0][0].particles[0].parameters[0] *= 1.01;
  sets[1][0].particles[1].parameters[0] *= 1.01;
  const std::size_t before = plan.stats().kinds_computed;
  const std::vector<std::vector<double>> images = plan.execute_batch(sets);
  EXPECT_EQ(plan.stats().kinds_computed - before, 2u);
  for (std::size_t k = 0; k < sets.size(); ++k) {
    Sample edited = sample;
    edited.layouts = sets[k];
    edited.validated = false;
    GisaxsResult got;
    got.intensity = images[k];
    expect_same_image(got, GisaxsPlan(edited, cpu_options()).execute());
  }
}
