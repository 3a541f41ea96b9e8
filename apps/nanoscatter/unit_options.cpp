#include "unit_options.hpp"

namespace nanoscatter::cli {

namespace {
// --help's placeholder: a number, optionally with its unit ("2nm").
constexpr const char* kTypeName = "NUMBER[UNIT]";
Where option_at(const std::string& name) { return {"", 0, name}; }
}  // namespace

QuantityParser length_in(units::Length unit) {
  return [unit](const std::string& text, const Where& where) { return units::length(text, unit, unit, where); };
}

QuantityParser angle_in(units::Angle unit) {
  return [unit](const std::string& text, const Where& where) { return units::angle(text, unit, unit, where); };
}

QuantityParser wavelength_in(units::Length unit) {
  return [unit](const std::string& text, const Where& where) { return units::wavelength(text, unit, unit, where); };
}

QuantityParser energy_in_kev() {
  return [](const std::string& text, const Where& where) { return units::energy_kev(text, where); };
}

CLI::Option* add_quantity_option(CLI::App& sub, const std::string& name, double& target, QuantityParser parse,
                                 const std::string& description) {
  return sub
      .add_option_function<std::string>(
          name, [name, parse, &target](const std::string& text) { target = parse(text, option_at(name)); },
          description)
      ->type_name(kTypeName);
}

CLI::Option* add_quantity_option(CLI::App& sub, const std::string& name, std::optional<double>& target,
                                 QuantityParser parse, const std::string& description) {
  return sub
      .add_option_function<std::string>(
          name, [name, parse, &target](const std::string& text) { target = parse(text, option_at(name)); },
          description)
      ->type_name(kTypeName);
}

CLI::Option* add_quantities_option(CLI::App& sub, const std::string& name, std::vector<double>& target,
                                   QuantityParser parse, const std::string& description) {
  return sub.add_option_function<std::vector<std::string>>(
      name,
      [name, parse, &target](const std::vector<std::string>& texts) {
        target.clear();
        for (const std::string& text : texts) target.push_back(parse(text, option_at(name)));
      },
      description)->type_name(kTypeName);
}

CLI::Option* add_length_text_option(CLI::App& sub, LengthOption& option, const std::string& description) {
  return sub.add_option_function<std::string>(
      option.name, [&option](const std::string& text) { option.text = text; }, description)->type_name(kTypeName);
}

std::vector<std::optional<double>> resolve_same_unit(const std::vector<const LengthOption*>& options) {
  std::vector<units::LengthText> given;
  const LengthOption* with_unit = nullptr;
  const LengthOption* wavelength = nullptr;
  for (const LengthOption* o : options) {
    if (o->is_wavelength) wavelength = o;
    if (!o->text) continue;
    given.push_back({*o->text, option_at(o->name), o->is_wavelength});
    if (units::has_unit(*o->text, option_at(o->name))) with_unit = o;
  }
  if (with_unit && wavelength && !wavelength->text)
    fail_at(option_at(wavelength->name), "required when ", with_unit->name, " carries a unit ('", *with_unit->text,
            "'): the default 2π has none");
  const std::vector<double> values = units::same_unit_lengths(given);
  std::vector<std::optional<double>> out;
  std::size_t next = 0;
  for (const LengthOption* o : options) out.push_back(o->text ? std::optional(values[next++]) : std::nullopt);
  return out;
}

}  // namespace nanoscatter::cli
