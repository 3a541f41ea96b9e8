// Small text helpers shared by the structure readers: whitespace splitting,
// strict number parsing (the whole token must be a number), reading a file
// into lines with a clear error when it cannot be opened.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nanoscatter/error.hpp"

namespace nanoscatter::io {

std::string_view trim(std::string_view text);
std::vector<std::string_view> split_whitespace(std::string_view text);
std::string to_lower(std::string_view text);
bool iequals(std::string_view a, std::string_view b);

// The whole token as a number ("1e-3", "+2.5", "nan"), or nullopt.
std::optional<double> to_double(std::string_view token);

// A finite number, or Error at `where`: "not a number 'abc'" / "not a finite number 'nan'".
double parse_finite(std::string_view token, const Where& where);

// Lines of text already in memory, split as read_lines splits a file's.
std::vector<std::string> split_lines(std::string_view text);

// Lines of a text file without their line ends ("\n" or "\r\n").
// Error "<path>: cannot open file" when it cannot be read.
std::vector<std::string> read_lines(const std::string& path);

}  // namespace nanoscatter::io
