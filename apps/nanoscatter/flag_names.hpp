// Library errors name engine options by their field in the options struct
// (Where::option, e.g. "bin_width"); the CLI prints the flag that sets it
// (--bin-width). One rule (underscores to dashes) covers every flag whose
// name is its field's.
#pragma once
#include <string>

#include "nanoscatter/error.hpp"

namespace nanoscatter::cli {

// "bin_width" → "--bin-width".
std::string flag_for_field(const std::string& field);

// The message the CLI prints for an Error: e.what(), with an option's field
// named as its flag.
std::string cli_message(const Error& e);

}  // namespace nanoscatter::cli
