#include "nanoscatter/error.hpp"

namespace nanoscatter {

namespace {

// The CLI promises one line per error, and messages quote input (a bad value,
// a line of a file, a third-party parser's text) that may hold a newline or
// another control character: those are written as escapes (\n, \r, \xNN).
std::string one_line(const std::string& text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if ((c < 0x20 && c != '\t') || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace

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
