// Options renamed for one naming scheme across engines (docs/conventions.md):
// the old spelling still works for one release and says, once, what replaced it.
#include <cstdio>
#include <set>

#include "commands.hpp"

namespace nanoscatter::cli {

void warn_renamed(const std::string& old_name, const std::string& new_name) {
  static std::set<std::string> said;
  if (!said.insert(old_name).second) return;
  std::fprintf(stderr, "nanoscatter: warning: %s is deprecated, use %s\n", old_name.c_str(), new_name.c_str());
}

void add_output_folder_option(CLI::App& sub, std::string& folder, const std::string& description) {
  sub.add_option("--output", folder, description);
  sub.add_option_function<std::string>(
      "--output-dir",
      [target = &folder](const std::string& value) {
        warn_renamed("--output-dir", "--output");
        *target = value;
      },
      "deprecated: use --output");
}

void add_renamed_alias(CLI::App& sub, const std::string& old_name, const std::string& new_name,
                       std::optional<std::string>& target) {
  sub.add_option_function<std::string>(
      old_name,
      [old_name, new_name, &target](const std::string& value) {
        warn_renamed(old_name, new_name);
        target = value;
      },
      "deprecated: use " + new_name);
}

}  // namespace nanoscatter::cli
