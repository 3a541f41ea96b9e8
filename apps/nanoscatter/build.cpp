// `nanoscatter build`: placeholder until the structure builder lands.
#include "commands.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::cli {

void add_build_command(CLI::App& app, const RunContext&) {
  auto* sub = app.add_subcommand("build", "build a nanoparticle from a lattice or a CIF");
  sub->callback([] { fail("build: not implemented yet"); });
}

}  // namespace nanoscatter::cli
