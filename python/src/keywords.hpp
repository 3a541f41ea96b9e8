// Keyword arguments of an engine call, checked by name: the bindings take
// **kwargs and read each option into the library's options struct, so an
// unknown keyword is a nanoscatter.Error that lists the valid ones (not
// pybind11's "incompatible function arguments" dump), a value of the wrong
// type names its keyword, and the checks of the values stay in the
// library's validate(), whose messages name the same keyword (an option's
// field is its keyword).
#pragma once
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "nanoscatter/device.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/parallel.hpp"
#include "nanoscatter/units.hpp"

namespace nanoscatter::python {

namespace py = pybind11;

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

class Keywords {
 public:
  // `call` names the function in messages ("DebyePlan").
  Keywords(const py::kwargs& kwargs, std::vector<std::string> valid, std::string call);

  bool has(const char* name) const { return kwargs_.contains(name); }
  // The `comm` keyword of the engines that share work over MPI ranks: its
  // Communicator, or this process alone where it is None or absent.
  parallel::Communicator communicator() const;
  bool is_none(const char* name) const { return has(name) && kwargs_[name].is_none(); }

  // into = the keyword's value when given (else unchanged).
  template <class T>
  void get(const char* name, T& into) const {
    if (!has(name)) return;
    try {
      into = kwargs_[name].cast<T>();
    } catch (const py::cast_error&) {
      fail_option(name, "expected ", type_name<T>(), ", got ", py::str(py::type::of(kwargs_[name])).cast<std::string>());
    }
  }

  // A string keyword turned into an enum by the library's parser.
  template <class E>
  void get_parsed(const char* name, E& into, E (*parse)(const std::string&)) const {
    std::string text;
    get(name, text);
    if (has(name)) into = parse(text);
  }

  // A keyword given as a value or as the text the CLI takes ("auto",
  // "0.05:0.45:0.05"), the text read by the library's parser; None or
  // absent: unchanged.
  template <class T, class Parse>
  void get_value_or_text(const char* name, T& into, Parse parse) const {
    if (!has(name) || is_none(name)) return;
    if (py::isinstance<py::str>(kwargs_[name])) {
      std::string text;
      get(name, text);
      into = parse(text);
    } else {
      get(name, into);
    }
  }

  // A length (or wavelength) keyword: a number in the engine's unit `bare`,
  // or a string with its unit, "2 nm", "12 keV" (units.hpp).
  template <class T>
  void get_length(const char* name, T& into, units::Length bare) const {
    get_value_or_text(name, into, [&](const std::string& text) { return units::length(text, bare, bare, at(name)); });
  }
  template <class T>
  void get_angle(const char* name, T& into, units::Angle bare) const {
    get_value_or_text(name, into, [&](const std::string& text) { return units::angle(text, bare, bare, at(name)); });
  }
  template <class T>
  void get_wavelength(const char* name, T& into, units::Length bare) const {
    get_value_or_text(name, into, [&](const std::string& text) { return units::wavelength(text, bare, bare, at(name)); });
  }
  // Several lengths or angles, each a number or a string with its unit.
  void get_lengths(const char* name, std::vector<double>& into, units::Length bare) const;
  void get_angles(const char* name, std::vector<double>& into, units::Angle bare) const;
  // dda and mie (ADDA's convention): the given keywords, all numbers (as
  // they are) or all strings with units (then in nm); a mix is refused.
  // `lengths` pairs a keyword with its target; `wavelength` names the one
  // that may also be a photon energy.
  void get_same_unit_lengths(const std::vector<std::pair<const char*, std::optional<double>*>>& lengths,
                             const char* wavelength) const;

  // device ("auto"|"cpu"|"gpu", resolved here), precision, threads,
  // max_device_memory (bytes) and quiet: the DeviceOptions keywords.
  void get_device(DeviceOptions& into) const;
  static const std::vector<std::string>& device_keywords();

 private:
  template <class T>
  static const char* type_name() {
    if constexpr (std::is_same_v<T, std::string>) return "a string";
    else if constexpr (std::is_same_v<T, bool>) return "True or False";
    else if constexpr (std::is_integral_v<T>) return "an integer";
    else if constexpr (std::is_floating_point_v<T>) return "a number";
    else if constexpr (is_optional<T>::value) return type_name<typename T::value_type>();  // or None
    else if constexpr (std::is_same_v<T, std::vector<double>>) return "a sequence of numbers";
    else return "a value of another type";
  }
  static Where at(const char* name) { return Where{"", 0, name, true}; }
  py::kwargs kwargs_;
};

// valid + DeviceOptions' keywords.
std::vector<std::string> with_device_keywords(std::vector<std::string> valid);

}  // namespace nanoscatter::python
