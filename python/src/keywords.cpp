#include "keywords.hpp"

#include <algorithm>

namespace nanoscatter::python {

Keywords::Keywords(const py::kwargs& kwargs, std::vector<std::string> valid, std::string call) : kwargs_(kwargs) {
  for (const auto& item : kwargs) {
    const auto name = item.first.cast<std::string>();
    if (std::find(valid.begin(), valid.end(), name) != valid.end()) continue;
    std::sort(valid.begin(), valid.end());
    std::string list;
    for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
    fail_at({"", 0, call}, "unknown keyword '", name, "' (valid: ", list, ")");
  }
}

const std::vector<std::string>& Keywords::device_keywords() {
  static const std::vector<std::string> names{"device", "precision", "threads", "max_device_memory", "quiet"};
  return names;
}

void Keywords::get_device(DeviceOptions& into) const {
  get("quiet", into.quiet);
  get_parsed("precision", into.precision, parse_precision);
  get("threads", into.threads);
  // A number of bytes or the CLI's text ("2G"), read by the CLI's parser so
  // that both refuse the same values with the same message.
  if (has("max_device_memory") && !is_none("max_device_memory"))
    into.max_device_memory =
        parse_memory_size(py::str(kwargs_["max_device_memory"]).cast<std::string>(), "max_device_memory");
  std::string device = "auto";
  get("device", device);
  into.device = select_device(parse_device(device));
}

namespace {
// A number or a string element as the text units.hpp reads: a number by its
// repr (an int's as written, a float's shortest), which reads back exactly.
std::string quantity_text(py::handle value, const char* name) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value)) return py::repr(value).cast<std::string>();
  try {
    return py::repr(py::float_(value.cast<double>())).cast<std::string>();
  } catch (const py::cast_error&) {
    fail_option(name, "expected a number or a string with its unit (\"2 nm\"), got ",
                py::str(py::type::of(value)).cast<std::string>());
  }
}

template <class Parse>
void sequence_of(const py::kwargs& kwargs, const char* name, std::vector<double>& into, Parse parse) {
  if (!kwargs.contains(name) || kwargs[name].is_none()) return;
  const py::handle value = kwargs[name];
  if (py::isinstance<py::str>(value) || !py::isinstance<py::sequence>(value))
    fail_option(name, "expected a sequence of numbers or strings with their unit");
  into.clear();
  for (const auto& item : value.cast<py::sequence>()) into.push_back(parse(quantity_text(item, name)));
}
}  // namespace

void Keywords::get_lengths(const char* name, std::vector<double>& into, units::Length bare) const {
  sequence_of(kwargs_, name, into, [&](const std::string& text) { return units::length(text, bare, bare, at(name)); });
}

void Keywords::get_angles(const char* name, std::vector<double>& into, units::Angle bare) const {
  sequence_of(kwargs_, name, into, [&](const std::string& text) { return units::angle(text, bare, bare, at(name)); });
}

void Keywords::get_same_unit_lengths(const std::vector<std::pair<const char*, std::optional<double>*>>& lengths,
                                     const char* wavelength) const {
  std::vector<units::LengthText> given;
  std::vector<std::optional<double>*> targets;
  for (const auto& item : lengths) {
    const char* name = item.first;
    if (!has(name) || is_none(name)) continue;
    given.push_back({quantity_text(kwargs_[name], name), at(name), std::string(name) == wavelength});
    targets.push_back(item.second);
  }
  const std::vector<double> values = units::same_unit_lengths(given);
  for (std::size_t i = 0; i < values.size(); ++i) *targets[i] = values[i];
}

parallel::Communicator Keywords::communicator() const {
  parallel::Communicator comm;
  if (!is_none("comm")) get("comm", comm);
  return comm;
}

std::vector<std::string> with_device_keywords(std::vector<std::string> valid) {
  const auto& d = Keywords::device_keywords();
  valid.insert(valid.end(), d.begin(), d.end());
  return valid;
}

}  // namespace nanoscatter::python
