#include "io/structure_text.hpp"

#include "core/number_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace nanoscatter::io {

std::string_view trim(std::string_view text) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

std::vector<std::string_view> split_whitespace(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    const std::size_t begin = pos;
    while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos > begin) tokens.push_back(text.substr(begin, pos - begin));
  }
  return tokens;
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) { return to_lower(a) == to_lower(b); }

std::optional<double> to_double(std::string_view token) { return number_from_text(token).value; }

double parse_finite(std::string_view token, const Where& where) {
  const auto value = to_double(token);
  if (!value) fail_at(where, "not a number '", token, "'");
  if (!std::isfinite(*value)) fail_at(where, "not a finite number '", token, "'");
  return *value;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return lines;
}

std::vector<std::string> read_lines(const std::string& path) {
  if (!std::filesystem::exists(path)) fail_at({path, 0, ""}, "no such file");
  if (std::filesystem::is_directory(path)) fail_at({path, 0, ""}, "is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_at({path, 0, ""}, "cannot open file");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  if (in.bad()) fail_at({path, 0, ""}, "read error");
  return lines;
}

}  // namespace nanoscatter::io
