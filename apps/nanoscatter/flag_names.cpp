#include "flag_names.hpp"

#include <algorithm>

namespace nanoscatter::cli {

std::string flag_for_field(const std::string& field) {
  std::string flag = "--" + field;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

std::string cli_message(const Error& e) {
  if (!e.where().option) return e.what();
  Where w = e.where();
  w.field = flag_for_field(w.field);
  return format_error(w, e.reason());
}

}  // namespace nanoscatter::cli
