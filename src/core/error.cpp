#include "nanoscatter/error.hpp"

namespace nanoscatter {

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
  return out;
}

Error::Error(Where where, const std::string& what)
    : std::runtime_error(format_error(where, what)), where_(std::move(where)), reason_(what) {}

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
