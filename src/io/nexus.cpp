#include "nanoscatter/io_nexus.hpp"

#include <algorithm>

#include "nanoscatter/error.hpp"

namespace nanoscatter::nexus {

namespace {
constexpr const char* kEntry = "/entry";
constexpr const char* kProcess = "/entry/process";

std::string joined(const std::vector<std::string>& lines, std::size_t first) {
  std::string out;
  for (std::size_t i = first; i < lines.size(); ++i) out += (out.empty() ? "" : "\n") + lines[i];
  return out;
}
}  // namespace

bool known_units(std::string_view units) {
  return units.empty() || std::find(kUnits.begin(), kUnits.end(), units) != kUnits.end();
}

std::string Writer::in_entry(const std::string& path) {
  return std::string(kEntry) + "/" + (path.starts_with('/') ? path.substr(1) : path);
}

Writer::Writer(const std::filesystem::path& path, const RunRecord& record, const std::vector<std::string>& header)
    : h5_(path) {
  h5_.set_attribute("/", "NX_class", "NXroot");
  h5_.set_attribute("/", "default", "entry");
  h5_.set_attribute("/", "creator", std::string("nanoscatter ") + library_version());
  h5_.create_group(kEntry);
  h5_.set_attribute(kEntry, "NX_class", "NXentry");
  const std::string title = header.empty() ? "nanoscatter " + record.engine : header.front();
  h5_.write(in_entry("title"), title);
  h5_.write(in_entry("program_name"), std::string("nanoscatter"));
  h5_.set_attribute(in_entry("program_name"), "version", std::string(library_version()));
  h5_.create_group(kProcess);
  h5_.set_attribute(kProcess, "NX_class", "NXprocess");
  h5_.write(in_entry("process/program"), std::string("nanoscatter"));
  h5_.write(in_entry("process/version"), std::string(library_version()));
  h5_.write(in_entry("process/engine"), record.engine);
  h5_.write(in_entry("process/command"), record.command);
  // The record's lines after title, command and version: the model, method,
  // device and every setting the engine reports.
  const std::string parameters = in_entry("process/parameters");
  h5_.create_group(parameters);
  h5_.set_attribute(parameters, "NX_class", "NXnote");
  h5_.write(parameters + "/type", std::string("text/plain"));
  h5_.write(parameters + "/description", title);
  h5_.write(parameters + "/data", joined(header, 1));
}

void Writer::describe(const std::string& path, const Field& what) {
  if (!known_units(what.units))
    fail("nexus: units '", what.units, "' of ", path, " are not one of the spellings of docs/nexus.md");
  if (!what.units.empty()) h5_.set_attribute(path, "units", what.units);
  if (!what.long_name.empty()) h5_.set_attribute(path, "long_name", what.long_name);
}

void Writer::data_group(const DataGroup& group) {
  const std::string path = in_entry(group.name);
  h5_.create_group(path);
  h5_.set_attribute(path, "NX_class", "NXdata");
  h5_.set_attribute(path, "signal", group.signal);
  h5_.set_attribute(path, "axes", group.axes);
  for (std::size_t i = 0; i < group.axes.size(); ++i)
    if (group.axes[i] != ".") h5_.set_attribute(path, group.axes[i] + "_indices", std::int64_t(i));
  if (!group.auxiliary_signals.empty()) h5_.set_attribute(path, "auxiliary_signals", group.auxiliary_signals);
  if (!group.orientation.empty()) h5_.set_attribute(path, "orientation", group.orientation);
  if (!group.interpretation.empty())
    h5_.set_attribute(path + "/" + group.signal, "interpretation", group.interpretation);
  if (!has_default_) {
    h5_.set_attribute(kEntry, "default", group.name);
    has_default_ = true;
  }
}

void Writer::alias(const std::string& legacy_path, const std::string& entry_path) {
  h5_.link(legacy_path, in_entry(entry_path));
}

}  // namespace nanoscatter::nexus
