// Options whose values may carry their unit: `--radius 2nm` is
// `--radius 20` (Å), `--wavelength 12keV` is hc/E (docs/conventions.md).
// The text is read by the library's parser (units.hpp), which names the
// option in its one-line errors; a bare number keeps the option's unit.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/error.hpp"
#include "nanoscatter/units.hpp"

namespace nanoscatter::cli {

// Text → value in the option's unit; `where` names the option.
using QuantityParser = std::function<double(const std::string& text, const Where& where)>;

QuantityParser length_in(units::Length unit);
QuantityParser angle_in(units::Angle unit);
// A length, or a photon energy (keV, eV) turned into hc/E.
QuantityParser wavelength_in(units::Length unit);
QuantityParser energy_in_kev();

CLI::Option* add_quantity_option(CLI::App& sub, const std::string& name, double& target, QuantityParser parse,
                                 const std::string& description);
CLI::Option* add_quantity_option(CLI::App& sub, const std::string& name, std::optional<double>& target,
                                 QuantityParser parse, const std::string& description);
// Several values (--size X Y Z, --euler-zyz α β γ), each with or without a unit.
CLI::Option* add_quantities_option(CLI::App& sub, const std::string& name, std::vector<double>& target,
                                   QuantityParser parse, const std::string& description);

// dda and mie (ADDA's convention): lengths in any one unit. Their options
// keep the text; resolve_same_unit() reads them together (units.hpp
// same_unit_lengths): all bare, or all with units and then in nm.
struct LengthOption {
  std::string name;                 // "--size"
  std::optional<std::string> text;  // as given; none when not given
  bool is_wavelength = false;
};
CLI::Option* add_length_text_option(CLI::App& sub, LengthOption& option, const std::string& description);
// The given options' values, in the order of `options` (none where not
// given). When some carry units, the wavelength must be given as well: its
// default (2π) has no unit.
std::vector<std::optional<double>> resolve_same_unit(const std::vector<const LengthOption*>& options);

}  // namespace nanoscatter::cli
