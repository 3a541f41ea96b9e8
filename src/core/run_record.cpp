#include "nanoscatter/run_record.hpp"

namespace nanoscatter {

const char* library_version() { return NANOSCATTER_VERSION; }

std::vector<std::string> RunRecord::header_lines(const std::string& title) const {
  std::vector<std::string> out;
  out.push_back(title);
  out.push_back("command: " + command);
  out.push_back(std::string("version: nanoscatter ") + library_version());
  out.insert(out.end(), lines.begin(), lines.end());
  return out;
}

std::vector<std::pair<std::string, std::string>> png_header_entries(const std::vector<std::string>& lines) {
  std::vector<std::pair<std::string, std::string>> text;
  for (std::size_t i = 0; i < lines.size(); ++i) text.emplace_back("nanoscatter:header_" + std::to_string(i), lines[i]);
  return text;
}

}  // namespace nanoscatter
