#include "nanoscatter/error.hpp"

#include "nanoscatter/one_line.hpp"

namespace nanoscatter {
namespace {
bool is_break(char c) { return c == '\n' || c == '\r'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || is_break(c); }
// Other control characters (a form feed, an escape sequence in a quoted
// value) could still move a terminal's cursor: written as \xNN.
bool is_control(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  return (c < 0x20 && !is_blank(ch)) || c == 0x7f;
}
}  // namespace

std::string one_line(std::string_view text) {
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (is_control(text[i])) {
      static constexpr char kHex[] = "0123456789abcdef";
      const auto c = static_cast<unsigned char>(text[i++]);
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
      continue;
    }
    if (!is_blank(text[i])) {
      out += text[i++];
      continue;
    }
    // A run of white space: kept as it is unless it holds a line break.
    std::size_t end = i;
    bool has_break = false;
    for (; end < text.size() && is_blank(text[end]); ++end) has_break = has_break || is_break(text[end]);
    out += has_break ? std::string_view("; ") : text.substr(i, end - i);
    i = end;
  }
  return out;
}

std::string format_error(const Where& where, const std::string& reason) {
  std::string out;
  if (!where.file.empty()) {
    out += where.file;
    if (where.line > 0) out += ":" + std::to_string(where.line);
    out += ": ";
  } else if (where.line > 0) {
    out += "line " + std::to_string(where.line) + ": ";
  }
  if (!where.field.empty()) out += where.field + ": ";
  out += reason;
  return one_line(out);
}

Error::Error(Where where, const std::string& what)
    : std::runtime_error(format_error(where, what)), where_(std::move(where)), reason_(one_line(what)) {}

void rethrow_with(const Error& e, const Where& outer) {
  Where w = e.where();
  if (w.file.empty()) w.file = outer.file;
  if (w.line == 0) w.line = outer.line;
  if (w.field.empty()) {
    w.field = outer.field;
    w.option = outer.option;
  }
  throw Error(w, e.reason());
}

}  // namespace nanoscatter
