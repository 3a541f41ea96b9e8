// Plain-text numeric tables: the `.dat`/`.txt`/`.csv` output of the engines
// (e.g. `Q I` from debye) and a reader for whitespace-separated matrices
// (measured curves and images, RMC targets).
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace nanoscatter {

// A table of equal-length columns, written as
//   # <header line>            one per header_lines entry (command, version, ...)
//   # units: Q [1/Å], I [e²]   only when column_units is not empty
//   # Q I                      the column names (always the last '#' line)
//   <row> ...
// Numbers are printed with "% .16e": 17 significant digits, which is enough
// for every IEEE binary64 value to read back bit for bit, in fixed-width
// columns. Non-finite values print as nan / inf / -inf and read back as such.
// A path ending in ".csv" gets ", " between values instead of two spaces.
struct TextTable {
  std::vector<std::string> header_lines;  // without the leading "# "; no newlines
  std::vector<std::string> column_names;  // one per column; non-empty, no whitespace or ','
  std::vector<std::string> column_units;  // empty, or one per column ("" for unitless)
  std::vector<std::vector<double>> columns;  // columns[c][row], all of one length
};

// Writes through AtomicOutput: the file appears whole or not at all.
// Throws Error naming the file and the field at fault (column, header line).
void write_text_table(const std::filesystem::path& path, const TextTable& table);

// A dense row-major matrix of doubles.
struct TextMatrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> data;  // data[r * cols + c]
  double at(std::size_t r, std::size_t c) const { return data[r * cols + c]; }
};

// Reads numbers separated by whitespace (or a comma between values, so CSV
// written by write_text_table reads back). '#' starts a comment to the end of
// the line; blank lines are skipped. Every data row must have the same number
// of values. Errors name "file:line: column N" (N counts values from 1) for a
// token that is not a number and for a ragged row.
TextMatrix read_text_matrix(const std::filesystem::path& path);

}  // namespace nanoscatter
