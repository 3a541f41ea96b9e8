// `nanoscatter debye`: placeholder until the Debye engine lands.
#include "commands.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::cli {

void add_debye_command(CLI::App& app, const RunContext&) {
  auto* sub = app.add_subcommand("debye", "orientation-averaged powder pattern I(Q) (Debye equation)");
  sub->callback([] { fail("debye: not implemented yet"); });
}

}  // namespace nanoscatter::cli
