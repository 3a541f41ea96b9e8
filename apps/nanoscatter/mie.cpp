// `nanoscatter mie`: exact efficiencies of a homogeneous or coated sphere
// (Lorenz–Mie theory), optionally its Mueller elements on a θ grid.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "nanoscatter/constants.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_text.hpp"
#include "nanoscatter/mie.hpp"

namespace nanoscatter::cli {
namespace {

struct MieCliOptions {
  double x = 0, radius = 0, lambda = 2 * kPi, core_ratio = 0;
  std::vector<double> m{1.5, 0.0}, m_core;
  int ntheta = 0;
  std::string output;
};

void run(const CLI::App& sub, const MieCliOptions& c, const RunContext& context) {
  if (!context.comm.root()) return;  // closed form: under mpirun rank 0 alone computes and writes
  const bool by_x = sub.count("--x") > 0, by_r = sub.count("--radius") > 0;
  if (by_x == by_r) fail_at({"", 0, "--x"}, "give either --x or --radius (with --lambda)");
  if (by_x && !(c.x > 0)) fail_at({"", 0, "--x"}, "must be > 0, got ", c.x);
  if (by_r && !(c.radius > 0)) fail_at({"", 0, "--radius"}, "must be > 0, got ", c.radius);
  if (!(c.lambda > 0)) fail_at({"", 0, "--lambda"}, "must be > 0, got ", c.lambda);
  const double x = by_x ? c.x : 2 * kPi * c.radius / c.lambda;
  const std::complex<double> m(c.m[0], c.m[1]);
  const bool coated = sub.count("--core-ratio") > 0;
  if (coated != !c.m_core.empty()) fail_at({"", 0, "--m-core"}, "--core-ratio and --m-core go together");
  if (coated && !(c.core_ratio >= 0 && c.core_ratio <= 1))
    fail_at({"", 0, "--core-ratio"}, "must lie in [0, 1], got ", c.core_ratio);
  if (c.ntheta < 0 || c.ntheta == 1) fail_at({"", 0, "--ntheta"}, "must be ≥ 2, got ", c.ntheta);
  if (c.ntheta > 0 && c.output.empty()) fail_at({"", 0, "--output"}, "required with --ntheta");
  const MieResult r = coated ? mie_coated_sphere(c.core_ratio * x, x, {c.m_core[0], c.m_core[1]}, m)
                             : mie_sphere(x, m);
  std::printf("x\t= %.10g\nQext\t= %.10g\nQsca\t= %.10g\nQabs\t= %.10g\nQback\t= %.10g\ng\t= %.10g\nterms\t= %zu\n",
              x, r.qext, r.qsca, r.qabs, r.qback, r.g, r.a.size());
  if (c.ntheta > 0) {
    TextTable t;
    t.header_lines = {"nanoscatter mie: Mueller elements of a sphere (Bohren & Huffman eq. 4.77)",
                      "command: " + context.command_line, "version: nanoscatter " + context.version};
    t.column_names = {"theta", "s11", "s12", "s33", "s34"};
    t.column_units = {"deg", "", "", "", ""};
    t.columns.assign(5, {});
    for (int i = 0; i < c.ntheta; ++i) {
      const double th = 180.0 * i / (c.ntheta - 1);
      const MieMueller mm = mie_mueller(r, th * kPi / 180);
      t.columns[0].push_back(th);
      t.columns[1].push_back(mm.s11);
      t.columns[2].push_back(mm.s12);
      t.columns[3].push_back(mm.s33);
      t.columns[4].push_back(mm.s34);
    }
    write_text_table(c.output, t);
  }
}

}  // namespace

void add_mie_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("mie", "exact Lorenz–Mie efficiencies of a homogeneous or coated sphere");
  auto options = std::make_shared<MieCliOptions>();
  MieCliOptions& o = *options;
  sub->add_option("--x", o.x, "size parameter 2πr/λ of the (outer) sphere");
  sub->add_option("--radius", o.radius, "(outer) radius, with --lambda");
  sub->add_option("--lambda", o.lambda, "wavelength (default 2π)");
  sub->add_option("--m", o.m, "refractive index 're im' (of the shell when coated)")->expected(2);
  sub->add_option("--core-ratio", o.core_ratio, "coated sphere: core/outer diameter ratio");
  sub->add_option("--m-core", o.m_core, "coated sphere: core refractive index 're im'")->expected(2);
  sub->add_option("--ntheta", o.ntheta, "write S11, S12, S33, S34 at this many θ over 0..180° to --output");
  sub->add_option("--output,-o", o.output, "table for --ntheta (.dat)");
  sub->callback([sub, options, context] { run(*sub, *options, context); });
}

}  // namespace nanoscatter::cli
