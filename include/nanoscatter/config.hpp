// TOML configuration files (sample descriptions for gisaxs, run files) read
// through typed getters that know where each value sits in the file, so every
// complaint names file, line and key:
//   sample.toml:12: particle.shape: unknown key 'radiuss'; allowed: radius, height
//   sample.toml:7: particle.radius: expected a number, found a string
// toml++ does the parsing but is included only in src/io/toml_config.cpp
// (it is heavy to compile); nothing of it appears here.
#pragma once
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nanoscatter/error.hpp"
#include "nanoscatter/units.hpp"

namespace nanoscatter {

namespace detail {
struct ConfigDocument;  // the parsed file; defined in toml_config.cpp
}

// A view of one table of a parsed file (the root, a [section], an element of
// an [[array]]). Cheap to copy; it keeps the parsed document alive.
// `key` arguments name one key of this table, not a dotted path: reach
// nested tables with get_table().
class ConfigTable {
 public:
  bool has(std::string_view key) const;
  // Whether the key holds an array (for keys that take one value or several).
  bool is_array(std::string_view key) const;

  // Numbers: integers and floats are both accepted; nan and ±inf are
  // rejected (no physical parameter here is meant to be one).
  double get_double(std::string_view key) const;
  double get_double_or(std::string_view key, double fallback) const;
  // Integers: a float such as 3.0 is rejected (TOML keeps the two apart).
  std::int64_t get_int(std::string_view key) const;
  std::int64_t get_int_or(std::string_view key, std::int64_t fallback) const;
  bool get_bool(std::string_view key) const;
  bool get_bool_or(std::string_view key, bool fallback) const;
  std::string get_string(std::string_view key) const;
  std::string get_string_or(std::string_view key, const std::string& fallback) const;
  // Arrays whose every element is a (finite) number / a string.
  std::vector<double> get_array_of_doubles(std::string_view key) const;
  std::vector<std::string> get_array_of_strings(std::string_view key) const;

  // Values that may carry their unit (units.hpp): a number, taken in
  // `bare`, or a string with its unit, "5 nm", "50 angstrom", "0.2 deg";
  // returned in `unit`. Arrays may mix the two forms element by element.
  double get_length(std::string_view key, units::Length unit, units::Length bare,
                    units::Sign sign = units::Sign::any) const;
  double get_length_or(std::string_view key, double fallback, units::Length unit, units::Length bare,
                       units::Sign sign = units::Sign::any) const;
  std::vector<double> get_array_of_lengths(std::string_view key, units::Length unit, units::Length bare) const;
  double get_angle(std::string_view key, units::Angle unit, units::Angle bare) const;
  double get_angle_or(std::string_view key, double fallback, units::Angle unit, units::Angle bare) const;
  std::vector<double> get_array_of_angles(std::string_view key, units::Angle unit, units::Angle bare) const;
  // A number, or the string as written ("12 keV", "0.154 nm"): the text for
  // units::wavelength() and units::energy_kev(), which also read energies.
  std::string get_quantity_text(std::string_view key) const;

  ConfigTable get_table(std::string_view key) const;
  // [[key]] blocks, or an inline array of inline tables; named key[0], key[1], ...
  std::vector<ConfigTable> get_array_of_tables(std::string_view key) const;

  // Throws for the first key (in file order) that is not in `allowed`.
  void check_keys(std::initializer_list<std::string_view> allowed) const;
  // This table's keys in file order.
  std::vector<std::string> keys() const;

  // Where a key's value sits ({file, line, "table.key"}), for the caller's
  // own checks, e.g. fail_at(t.where("radius"), "must be > 0"). A missing key
  // gives the table's own line.
  Where where(std::string_view key) const;
  // Where this table starts (its [header] line; 0 for the root).
  Where where() const;
  // Dotted name of this table ("particle.shape", "layer[1]"; "" for the root).
  const std::string& path() const { return path_; }
  const std::string& file() const;

 private:
  friend struct ConfigAccess;  // builds views inside toml_config.cpp
  std::shared_ptr<const detail::ConfigDocument> doc_;
  // The toml::table this view shows, owned by *doc_; an opaque pointer keeps
  // toml++ out of this header.
  const void* table_ = nullptr;
  std::string path_;
};

// Parses a TOML file. Syntax errors become
//   file:line: syntax error at column C: <toml++'s description>
ConfigTable load_config(const std::filesystem::path& path);
// Parses TOML text; `source_name` stands for the file in messages.
ConfigTable parse_config(std::string_view text, const std::string& source_name);

}  // namespace nanoscatter
