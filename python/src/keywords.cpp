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
  get("max_device_memory", into.max_device_memory);
  std::string device = "auto";
  get("device", device);
  into.device = select_device(parse_device(device));
}

std::vector<std::string> with_device_keywords(std::vector<std::string> valid) {
  const auto& d = Keywords::device_keywords();
  valid.insert(valid.end(), d.begin(), d.end());
  return valid;
}

}  // namespace nanoscatter::python
