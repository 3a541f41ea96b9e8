// Editing TOML documents key by key (the GISAXS sample object model reads,
// edits and writes its file through these). A key path names one value:
// dotted table keys, [i] for the i-th element of an array of tables or of
// values: "beam.wavelength", "particle[0].radius", "detector.phi_f.bins",
// "material.substrate.delta". toml++ stays in src/io/toml_config.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace nanoscatter {

using ConfigValue = std::variant<double, std::int64_t, bool, std::string>;

// The text with the value at `path` set (created if its table exists but
// the key does not), serialised by toml++ (comments are not kept; the
// values and their order are). Errors name source and path.
std::string toml_with_value(std::string_view text, const std::string& source, const std::string& path,
                            const ConfigValue& value);

// The value at `path`: a number, boolean or string (an Error for a table or
// an array, which hold several values: give a deeper path).
ConfigValue toml_value(std::string_view text, const std::string& source, const std::string& path);

// Every value's path in file order (arrays of numbers as one path each
// element: "detector.size[0]").
std::vector<std::string> toml_value_paths(std::string_view text, const std::string& source);

// The text as toml++ writes it (what toml_with_value returns), so that an
// unedited document and an edited one are written alike.
std::string toml_normalised(std::string_view text, const std::string& source);

}  // namespace nanoscatter
