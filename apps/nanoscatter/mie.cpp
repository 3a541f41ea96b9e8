// `nanoscatter mie`: exact efficiencies of a homogeneous or coated sphere
// (Lorenz–Mie theory), optionally its Mueller elements on a θ grid. Flags
// are bound to MieOptions' fields; the checks are MieOptions::validate's.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "unit_options.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/mie.hpp"
#include "nanoscatter/mie_output.hpp"

namespace nanoscatter::cli {
namespace {

struct MieCliOptions {
  MieOptions engine;
  std::string output;
  // Lengths in one unit (ADDA's), or each with its own: read together.
  LengthOption radius{"--radius", std::nullopt}, wavelength{"--wavelength", std::nullopt, true};
};

void run(const MieCliOptions& c, const RunContext& context) {
  if (!context.comm.root()) return;  // closed form: under mpirun rank 0 alone computes and writes
  MieOptions o = c.engine;
  const auto lengths = resolve_same_unit({&c.radius, &c.wavelength});
  o.radius = lengths[0];
  if (lengths[1]) o.lambda = *lengths[1];
  o.validate();
  // The table is the only file: the CLI prints the efficiencies.
  if (o.ntheta > 0 && c.output.empty()) fail_option("output", "required with --ntheta");
  if (!c.output.empty()) check_mie_output(c.output);
  const MieResult r = mie_scatter(o);
  std::printf("x\t= %.10g\nQext\t= %.10g\nQsca\t= %.10g\nQabs\t= %.10g\nQback\t= %.10g\ng\t= %.10g\nterms\t= %zu\n",
              r.x, r.qext, r.qsca, r.qabs, r.qback, r.g, r.a.size());
  if (o.ntheta > 0)
    write_mie_mueller(c.output, mie_mueller_table(r, o.angles()), RunRecord{"mie", context.command_line, {}});
}

}  // namespace

void add_mie_command(CLI::App& app, const RunContext& context) {
  auto* sub = app.add_subcommand("mie", "exact Lorenz–Mie efficiencies of a homogeneous or coated sphere");
  auto options = std::make_shared<MieCliOptions>();
  MieOptions& o = options->engine;
  sub->add_option("--x", o.x, "size parameter 2πr/λ of the (outer) sphere");
  add_length_text_option(*sub, options->radius, "(outer) radius, with --wavelength: its unit, or 0.5um");
  add_length_text_option(*sub, options->wavelength, "wavelength, the unit of --radius (default 2π); or 0.5um, all in nm");
  add_renamed_alias(*sub, "--lambda", "--wavelength", options->wavelength.text);
  sub->add_option("--m", o.m, "refractive index 're im' (of the shell when coated)")->expected(2);
  sub->add_option("--core-ratio", o.core_ratio, "coated sphere: core/outer diameter ratio");
  sub->add_option("--m-core", o.m_core, "coated sphere: core refractive index 're im'")->expected(2);
  sub->add_option("--ntheta", o.ntheta, "write S11, S12, S33, S34 at this many θ over 0..180° to --output");
  sub->add_option("--output,-o", options->output, "table for --ntheta (.dat/.txt/.csv text)");
  sub->callback([options, context] { run(*options, context); });
}

}  // namespace nanoscatter::cli
