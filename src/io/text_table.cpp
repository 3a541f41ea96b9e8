// Text tables: writer with '#' headers and full-precision columns, and a
// strict reader for numeric matrices (errors name file, line and column).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string_view>
#include <system_error>

#include "core/number_text.hpp"
#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_text.hpp"

namespace nanoscatter {
namespace {

bool has_csv_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".csv";
}

void check_table(const std::string& file, const TextTable& table) {
  for (std::size_t i = 0; i < table.header_lines.size(); ++i) {
    if (table.header_lines[i].find_first_of("\r\n") != std::string::npos)
      fail_at({file, 0, "header line " + std::to_string(i + 1)},
              "contains a line break; pass one entry per line");
  }
  if (table.columns.empty()) fail_at({file, 0, "columns"}, "table has no columns");
  if (table.column_names.size() != table.columns.size())
    fail_at({file, 0, "column names"}, table.column_names.size(), " names for ",
            table.columns.size(), " columns");
  if (!table.column_units.empty() && table.column_units.size() != table.columns.size())
    fail_at({file, 0, "column units"}, table.column_units.size(), " units for ",
            table.columns.size(), " columns");
  for (const auto& name : table.column_names) {
    // The name line is split on whitespace by readers (numpy, gnuplot, ours).
    if (name.empty() || name.find_first_of(" \t\r\n,#") != std::string::npos)
      fail_at({file, 0, "column '" + name + "'"},
              "a column name must be non-empty without spaces, ',' or '#'");
  }
  const std::size_t rows = table.columns.front().size();
  for (std::size_t c = 1; c < table.columns.size(); ++c) {
    if (table.columns[c].size() != rows)
      fail_at({file, 0, "column '" + table.column_names[c] + "'"}, "has ",
              table.columns[c].size(), " values, column '", table.column_names[0], "' has ", rows);
  }
}

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

}  // namespace

void write_text_table(const std::filesystem::path& path, const TextTable& table) {
  const std::string file = path.string();
  check_table(file, table);
  AtomicOutput out(path);
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(out.temp_path().c_str(), "w"));
  if (!f) fail_at({file, 0, "--output"}, "cannot create file: ", std::strerror(errno));

  for (const auto& line : table.header_lines) std::fprintf(f.get(), "# %s\n", line.c_str());
  if (!table.column_units.empty()) {
    std::fputs("# units:", f.get());
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      // "[1]" is the SI notation for a dimensionless quantity.
      const std::string& unit = table.column_units[c].empty() ? "1" : table.column_units[c];
      std::fprintf(f.get(), "%s %s [%s]", c == 0 ? "" : ",", table.column_names[c].c_str(),
                   unit.c_str());
    }
    std::fputc('\n', f.get());
  }
  std::fputc('#', f.get());
  for (const auto& name : table.column_names) std::fprintf(f.get(), " %s", name.c_str());
  std::fputc('\n', f.get());

  const char* separator = has_csv_extension(path) ? ", " : "  ";
  const std::size_t rows = table.columns.front().size();
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      // % .16e: 17 significant digits round-trip any binary64 exactly; the
      // space flag keeps positive and negative numbers the same width.
      std::fprintf(f.get(), "%s% .16e", c == 0 ? "" : separator, table.columns[c][r]);
    }
    std::fputc('\n', f.get());
  }
  // Catch a full disk or an I/O error before the file gets its real name.
  const bool write_failed = std::ferror(f.get()) != 0;
  const int close_status = std::fclose(f.release());
  if (write_failed || close_status != 0)
    fail_at({file, 0, "--output"}, "write failed: ", std::strerror(errno));
  out.commit();
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Parses one number token in full; throws naming file, line and value column.
double parse_number(std::string_view token, const Where& where) {
  const TextNumber number = number_from_text(token);
  if (number.out_of_range) fail_at(where, "number out of range: '", token, "'");
  if (!number.value) fail_at(where, "not a number: '", token, "'");
  return *number.value;
}

}  // namespace

TextMatrix read_text_matrix(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_at({file, 0, ""}, "cannot open file for reading");

  TextMatrix m;
  std::size_t first_data_line = 0;
  std::string line;
  std::size_t line_no = 0;
  std::vector<double> row;
  while (std::getline(in, line)) {
    ++line_no;
    std::string_view rest(line);
    if (const auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
    row.clear();
    std::size_t pos = 0;
    bool comma_pending = false;  // a ',' was read and a value must follow
    while (true) {
      while (pos < rest.size() && is_blank(rest[pos])) ++pos;
      if (pos == rest.size()) break;
      const Where where{file, static_cast<int>(line_no), "column " + std::to_string(row.size() + 1)};
      if (rest[pos] == ',') {
        if (comma_pending || row.empty()) fail_at(where, "empty value before ','");
        comma_pending = true;
        ++pos;
        continue;
      }
      std::size_t end = pos;
      while (end < rest.size() && !is_blank(rest[end]) && rest[end] != ',') ++end;
      row.push_back(parse_number(rest.substr(pos, end - pos), where));
      comma_pending = false;
      pos = end;
    }
    if (comma_pending)
      fail_at({file, static_cast<int>(line_no), "column " + std::to_string(row.size() + 1)},
              "missing value after ','");
    if (row.empty()) continue;
    if (m.rows == 0) {
      m.cols = row.size();
      first_data_line = line_no;
    } else if (row.size() != m.cols) {
      fail_at({file, static_cast<int>(line_no),
               "column " + std::to_string(std::min(row.size(), m.cols) + 1)},
              "row has ", row.size(), " values, expected ", m.cols, " as on line ", first_data_line);
    }
    m.data.insert(m.data.end(), row.begin(), row.end());
    ++m.rows;
  }
  if (in.bad()) fail_at({file, static_cast<int>(line_no), ""}, "read error");
  if (m.rows == 0) fail_at({file, 0, ""}, "no numeric data (only comments or blank lines)");
  return m;
}

}  // namespace nanoscatter
