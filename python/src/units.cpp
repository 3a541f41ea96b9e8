// The library's unit parser (units.hpp) for nanoscatter.units: a string
// with its unit into a value in the unit the caller states. `name` is the
// keyword or field that errors name.
#include "bindings.hpp"
#include "nanoscatter/units.hpp"

namespace nanoscatter::python {

namespace {
Where named(const std::string& name) { return Where{"", 0, name, true}; }
}  // namespace

void bind_units(py::module_& m) {
  m.def(
      "units_length",
      [](const std::string& text, const std::string& unit, const std::string& name) {
        const units::Length u = units::length_unit(unit, named("unit"));
        return units::length(text, u, u, named(name));
      },
      py::arg("text"), py::arg("unit"), py::arg("name") = "");
  m.def(
      "units_angle",
      [](const std::string& text, const std::string& unit, const std::string& name) {
        const units::Angle u = units::angle_unit(unit, named("unit"));
        return units::angle(text, u, u, named(name));
      },
      py::arg("text"), py::arg("unit"), py::arg("name") = "");
  m.def(
      "units_wavelength",
      [](const std::string& text, const std::string& unit, const std::string& name) {
        const units::Length u = units::length_unit(unit, named("unit"));
        return units::wavelength(text, u, u, named(name));
      },
      py::arg("text"), py::arg("unit"), py::arg("name") = "");
  m.def(
      "units_energy_kev", [](const std::string& text, const std::string& name) { return units::energy_kev(text, named(name)); },
      py::arg("text"), py::arg("name") = "");
}

}  // namespace nanoscatter::python
