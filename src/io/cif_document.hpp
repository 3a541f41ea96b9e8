// CIF 1.1 syntax (International Tables Vol. G, §2.2.7): data_ blocks, tags,
// loop_ tables, values unquoted, 'single-' or "double-quoted" (closed by the
// quote followed by whitespace), and semicolon text fields. Tags are matched
// case-insensitively. Only syntax lives here; what the tags mean is in cif.cpp.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nanoscatter::io {

struct CifValue {
  std::string text;
  int line = 0;         // 1-based line where the value starts
  bool quoted = false;  // quoted string or text field: '?' and '.' are then literal
};

struct CifLoop {
  std::vector<std::string> tags;            // lower case
  std::vector<std::vector<CifValue>> rows;  // rows[i][j] belongs to tags[j]
  int line = 0;                             // line of loop_
  int column(const std::string& tag) const; // -1 when absent; `tag` in lower case
};

struct CifBlock {
  std::string name;  // after data_
  int line = 0;
  std::map<std::string, CifValue> items;  // single tag-value pairs, tag in lower case
  std::vector<CifLoop> loops;

  const CifValue* item(const std::string& tag) const;
  const CifLoop* loop_with(const std::string& tag) const;
  bool has(const std::string& tag) const { return item(tag) || loop_with(tag); }
  // The values of `tag` whether it is a single item or a loop column
  // (empty when absent).
  std::vector<CifValue> values(const std::string& tag) const;
};

// Parses the whole file; throws Error naming `path` and the line on syntax errors.
std::vector<CifBlock> parse_cif(const std::vector<std::string>& lines, const std::string& path);

// Unquoted '?' (unknown) or '.' (inapplicable).
bool cif_missing(const CifValue& value);
// A numeric value, its standard uncertainty "(3)" dropped: "5.620(3)" -> 5.62.
std::optional<double> cif_number(const CifValue& value);

}  // namespace nanoscatter::io
