// Errors: one exception type carrying where the problem is (file, line, field),
// and fail(...) helpers that build the message and throw. Inside the library we
// throw; the CLI and the Python module turn an Error into a one-line message.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace nanoscatter {

// Where a user-facing problem lies. Empty members are left out of the message.
struct Where {
  std::string file;   // input file, or "" when the value came from the command line
  int line = 0;       // 1-based line in that file, 0 when there is none
  std::string field;  // the field, key or option at fault
  // field is an engine option's name (an options struct's field, e.g.
  // "bin_width"): the CLI prints it as its flag (--bin-width) and Python as
  // its keyword (bin_width), so the library's message serves both.
  bool option = false;
};

class Error : public std::runtime_error {
 public:
  Error(Where where, const std::string& what);
  const Where& where() const { return where_; }
  // The bare message, without the location prefix.
  const std::string& reason() const { return reason_; }

 private:
  Where where_;
  std::string reason_;
};

// "file:line: field: reason" with missing parts omitted.
std::string format_error(const Where& where, const std::string& reason);

namespace detail {
template <class... Parts>
std::string concat(Parts&&... parts) {
  std::ostringstream os;
  (os << ... << std::forward<Parts>(parts));
  return os.str();
}
}  // namespace detail

// Throw an Error with no location (programming-level or global problems).
template <class... Parts>
[[noreturn]] void fail(Parts&&... parts) {
  throw Error(Where{}, detail::concat(std::forward<Parts>(parts)...));
}

// Throw an Error that names the file, line and field at fault.
template <class... Parts>
[[noreturn]] void fail_at(const Where& where, Parts&&... parts) {
  throw Error(where, detail::concat(std::forward<Parts>(parts)...));
}

// Throw an Error about an engine option, named by its field in the options
// struct (snake_case; Where::option).
template <class... Parts>
[[noreturn]] void fail_option(const std::string& field, Parts&&... parts) {
  throw Error(Where{"", 0, field, true}, detail::concat(std::forward<Parts>(parts)...));
}

// Rethrow an Error with the outer location filled in where it was missing
// (e.g. a parser that knows the line but not the file name).
[[noreturn]] void rethrow_with(const Error& e, const Where& outer);

}  // namespace nanoscatter
