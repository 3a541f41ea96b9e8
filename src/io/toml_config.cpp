// ConfigTable over toml++ 3.3. The only file that includes toml++.
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "nanoscatter/config.hpp"
#include "nanoscatter/config_edit.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter {

namespace detail {
struct ConfigDocument {
  std::string file;
  toml::table root;
};
}  // namespace detail

namespace {

int line_of(const toml::source_region& region) { return static_cast<int>(region.begin.line); }

const char* describe(toml::node_type type) {
  switch (type) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

// A finite double from an integer or float node, or an Error at `where`.
double number_from(const toml::node& node, const Where& where) {
  double value = 0;
  if (const auto* i = node.as_integer()) {
    value = static_cast<double>(i->get());
  } else if (const auto* f = node.as_floating_point()) {
    value = f->get();
  } else {
    fail_at(where, "expected a number, found ", describe(node.type()));
  }
  if (!std::isfinite(value)) fail_at(where, "expected a finite number, found ", value);
  return value;
}

// A number node as text that reads back to the same double (%.17g), or a
// string node as written: what units.hpp parses. A string must name its
// unit: "0.1" in quotes is more likely a slip than a bare number.
std::string quantity_text(const toml::node& node, const Where& where) {
  if (const auto* s = node.as_string()) {
    if (!units::has_unit(s->get(), where))
      fail_at(where, "a string needs its unit (\"5 nm\", \"0.2 deg\"); write a bare number without quotes; got '",
              s->get(), "'");
    return s->get();
  }
  if (!node.as_integer() && !node.as_floating_point())
    fail_at(where, "expected a number or a string with its unit (\"5 nm\"), found ", describe(node.type()));
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", number_from(node, where));
  return text;
}

}  // namespace

// Builds views; a friend of ConfigTable so the opaque pointer stays private.
struct ConfigAccess {
  static ConfigTable make(std::shared_ptr<const detail::ConfigDocument> doc,
                          const toml::table* table, std::string path) {
    ConfigTable view;
    view.doc_ = std::move(doc);
    view.table_ = table;
    view.path_ = std::move(path);
    return view;
  }
  static const toml::table& table(const ConfigTable& view) {
    // A default-constructed view shows nothing; say so instead of crashing.
    if (!view.table_) fail("ConfigTable: use of an empty view (not obtained from a parsed file)");
    return *static_cast<const toml::table*>(view.table_);
  }
};

namespace {

const toml::table& table_of(const ConfigTable& view) { return ConfigAccess::table(view); }

// toml++ quotes the characters it saw, line breaks included ("saw 'n\n'"):
// written as escapes, the message stays one line and says what was there.
std::string describe(const toml::parse_error& e) {
  std::string out;
  for (const char c : e.description()) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out;
}

std::string child_path(const ConfigTable& view, std::string_view key) {
  return view.path().empty() ? std::string(key) : view.path() + "." + std::string(key);
}

// The node under `key`, or an Error naming the key at the table's line.
const toml::node& require(const ConfigTable& view, std::string_view key) {
  const toml::node* node = table_of(view).get(key);
  if (!node) {
    Where where = view.where();
    where.field = child_path(view, key);
    fail_at(where, "missing required key");
  }
  return *node;
}

Where where_in_array(const ConfigTable& view, std::string_view key, std::size_t index,
                     const toml::node& element) {
  return {view.file(), line_of(element.source()),
          child_path(view, key) + "[" + std::to_string(index) + "]"};
}

std::shared_ptr<const detail::ConfigDocument> parse_document(std::string_view text,
                                                             const std::string& source_name) {
  auto doc = std::make_shared<detail::ConfigDocument>();
  doc->file = source_name;
  try {
    doc->root = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    fail_at({source_name, static_cast<int>(begin.line), ""}, "syntax error at column ",
            begin.column, ": ", describe(e));
  }
  return doc;
}

}  // namespace

const std::string& ConfigTable::file() const {
  static const std::string none;
  return doc_ ? doc_->file : none;
}

Where ConfigTable::where() const {
  table_of(*this);  // rejects an empty view
  // The root table's region is the whole file; report no line for it.
  const int line = table_ == &doc_->root ? 0 : line_of(table_of(*this).source());
  return {doc_->file, line, path_};
}

Where ConfigTable::where(std::string_view key) const {
  if (const toml::node* node = table_of(*this).get(key))
    return {doc_->file, line_of(node->source()), child_path(*this, key)};
  Where w = where();
  w.field = child_path(*this, key);
  return w;
}

bool ConfigTable::has(std::string_view key) const { return table_of(*this).contains(key); }
bool ConfigTable::is_array(std::string_view key) const {
  const toml::node* node = table_of(*this).get(key);
  return node && node->is_array();
}

double ConfigTable::get_double(std::string_view key) const {
  return number_from(require(*this, key), where(key));
}
double ConfigTable::get_double_or(std::string_view key, double fallback) const {
  return has(key) ? get_double(key) : fallback;
}

std::int64_t ConfigTable::get_int(std::string_view key) const {
  const toml::node& node = require(*this, key);
  const auto* value = node.as_integer();
  if (!value) fail_at(where(key), "expected an integer, found ", describe(node.type()));
  return value->get();
}
std::int64_t ConfigTable::get_int_or(std::string_view key, std::int64_t fallback) const {
  return has(key) ? get_int(key) : fallback;
}

bool ConfigTable::get_bool(std::string_view key) const {
  const toml::node& node = require(*this, key);
  const auto* value = node.as_boolean();
  if (!value) fail_at(where(key), "expected true or false, found ", describe(node.type()));
  return value->get();
}
bool ConfigTable::get_bool_or(std::string_view key, bool fallback) const {
  return has(key) ? get_bool(key) : fallback;
}

std::string ConfigTable::get_string(std::string_view key) const {
  const toml::node& node = require(*this, key);
  const auto* value = node.as_string();
  if (!value) fail_at(where(key), "expected a string, found ", describe(node.type()));
  return value->get();
}
std::string ConfigTable::get_string_or(std::string_view key, const std::string& fallback) const {
  return has(key) ? get_string(key) : fallback;
}

std::vector<double> ConfigTable::get_array_of_doubles(std::string_view key) const {
  const toml::node& node = require(*this, key);
  const auto* array = node.as_array();
  if (!array) fail_at(where(key), "expected an array of numbers, found ", describe(node.type()));
  std::vector<double> values;
  values.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i)
    values.push_back(number_from((*array)[i], where_in_array(*this, key, i, (*array)[i])));
  return values;
}

std::vector<std::string> ConfigTable::get_array_of_strings(std::string_view key) const {
  const toml::node& node = require(*this, key);
  const auto* array = node.as_array();
  if (!array) fail_at(where(key), "expected an array of strings, found ", describe(node.type()));
  std::vector<std::string> values;
  values.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i) {
    const auto* s = (*array)[i].as_string();
    if (!s)
      fail_at(where_in_array(*this, key, i, (*array)[i]), "expected a string, found ",
              describe((*array)[i].type()));
    values.push_back(s->get());
  }
  return values;
}

std::string ConfigTable::get_quantity_text(std::string_view key) const {
  return quantity_text(require(*this, key), where(key));
}

double ConfigTable::get_length(std::string_view key, units::Length unit, units::Length bare, units::Sign sign) const {
  return units::length(get_quantity_text(key), unit, bare, where(key), sign);
}
double ConfigTable::get_length_or(std::string_view key, double fallback, units::Length unit, units::Length bare,
                                  units::Sign sign) const {
  return has(key) ? get_length(key, unit, bare, sign) : fallback;
}
double ConfigTable::get_angle(std::string_view key, units::Angle unit, units::Angle bare) const {
  return units::angle(get_quantity_text(key), unit, bare, where(key));
}
double ConfigTable::get_angle_or(std::string_view key, double fallback, units::Angle unit, units::Angle bare) const {
  return has(key) ? get_angle(key, unit, bare) : fallback;
}

namespace {
// Each element of an array through `parse(text, where)`.
template <class Parse>
std::vector<double> array_of_quantities(const ConfigTable& view, std::string_view key, const toml::node& node,
                                        Parse&& parse) {
  const auto* array = node.as_array();
  if (!array) fail_at(view.where(key), "expected an array of numbers, found ", describe(node.type()));
  std::vector<double> values;
  values.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i) {
    const Where at = where_in_array(view, key, i, (*array)[i]);
    values.push_back(parse(quantity_text((*array)[i], at), at));
  }
  return values;
}
}  // namespace

std::vector<double> ConfigTable::get_array_of_lengths(std::string_view key, units::Length unit,
                                                      units::Length bare) const {
  return array_of_quantities(*this, key, require(*this, key), [&](const std::string& text, const Where& at) {
    return units::length(text, unit, bare, at);
  });
}
std::vector<double> ConfigTable::get_array_of_angles(std::string_view key, units::Angle unit,
                                                     units::Angle bare) const {
  return array_of_quantities(*this, key, require(*this, key), [&](const std::string& text, const Where& at) {
    return units::angle(text, unit, bare, at);
  });
}

ConfigTable ConfigTable::get_table(std::string_view key) const {
  const toml::node& node = require(*this, key);
  const auto* table = node.as_table();
  if (!table) fail_at(where(key), "expected a table, found ", describe(node.type()));
  return ConfigAccess::make(doc_, table, child_path(*this, key));
}

std::vector<ConfigTable> ConfigTable::get_array_of_tables(std::string_view key) const {
  const toml::node& node = require(*this, key);
  const auto* array = node.as_array();
  if (!array)
    fail_at(where(key), "expected an array of tables ([[", key, "]]), found ", describe(node.type()));
  std::vector<ConfigTable> tables;
  tables.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i) {
    const auto* table = (*array)[i].as_table();
    const Where w = where_in_array(*this, key, i, (*array)[i]);
    if (!table) fail_at(w, "expected a table, found ", describe((*array)[i].type()));
    tables.push_back(ConfigAccess::make(doc_, table, w.field));
  }
  return tables;
}

namespace {

// (key, where the key is written), sorted into file order; toml++ keeps
// tables sorted by name.
std::vector<std::pair<std::string, toml::source_position>> keys_in_file_order(
    const toml::table& table) {
  std::vector<std::pair<std::string, toml::source_position>> keys;
  for (const auto& [key, node] : table) {
    // Keys of implicitly created tables carry no position; fall back to the value's.
    const auto& pos = key.source().begin ? key.source().begin : node.source().begin;
    keys.emplace_back(std::string(key.str()), pos);
  }
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return std::pair(a.second.line, a.second.column) < std::pair(b.second.line, b.second.column);
  });
  return keys;
}

}  // namespace

std::vector<std::string> ConfigTable::keys() const {
  std::vector<std::string> names;
  for (auto& [key, pos] : keys_in_file_order(table_of(*this))) names.push_back(std::move(key));
  return names;
}

void ConfigTable::check_keys(std::initializer_list<std::string_view> allowed) const {
  for (const auto& [key, pos] : keys_in_file_order(table_of(*this))) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    fail_at({doc_->file, static_cast<int>(pos.line), path_}, "unknown key '", key, "'",
            allowed.size() ? "; allowed: " + list : "; this table takes no keys");
  }
}

ConfigTable parse_config(std::string_view text, const std::string& source_name) {
  auto doc = parse_document(text, source_name);
  const toml::table* root = &doc->root;
  return ConfigAccess::make(std::move(doc), root, "");
}

ConfigTable load_config(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_at({file, 0, ""}, "cannot open configuration file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail_at({file, 0, ""}, "read error");
  return parse_config(text.str(), file);
}

// ---- editing (config_edit.hpp) ----------------------------------------------

namespace {

struct PathStep {
  std::string key;
  long index = -1;  // [i], or −1
};

std::vector<PathStep> split_path(const std::string& path, const std::string& source) {
  std::vector<PathStep> steps;
  std::size_t at = 0;
  while (at <= path.size()) {
    const std::size_t dot = std::min(path.find('.', at), path.size());
    std::string part = path.substr(at, dot - at);
    PathStep step;
    if (const auto open = part.find('['); open != std::string::npos) {
      const auto close = part.find(']', open);
      if (close != part.size() - 1 || close == open + 1) fail_at({source, 0, path}, "bad key path: '", part, "'");
      const auto index = whole_number(std::string_view(part).substr(open + 1, close - open - 1));
      if (!index) fail_at({source, 0, path}, "bad index in key path: '", part, "'");
      if (*index < 0) fail_at({source, 0, path}, "negative index in key path");
      step.index = *index;
      part = part.substr(0, open);
    }
    if (part.empty()) fail_at({source, 0, path}, "empty key in key path");
    step.key = std::move(part);
    steps.push_back(std::move(step));
    at = dot + 1;
  }
  return steps;
}

// The table that holds the path's last step (every earlier step must exist).
toml::table& holder_of(toml::table& root, const std::vector<PathStep>& steps, const std::string& path,
                       const std::string& source) {
  toml::table* table = &root;
  for (std::size_t s = 0; s + 1 < steps.size(); ++s) {
    toml::node* node = table->get(steps[s].key);
    if (!node) fail_at({source, 0, path}, "no key '", steps[s].key, "' here");
    if (steps[s].index >= 0) {
      toml::array* array = node->as_array();
      if (!array) fail_at({source, 0, path}, "'", steps[s].key, "' is not an array");
      if (std::size_t(steps[s].index) >= array->size())
        fail_at({source, 0, path}, "'", steps[s].key, "' has ", array->size(), " elements, no [", steps[s].index, "]");
      node = array->get(std::size_t(steps[s].index));
    }
    table = node->as_table();
    if (!table) fail_at({source, 0, path}, "'", steps[s].key, "' is not a table");
  }
  return *table;
}

// The array under the last step's key, checked to hold element [index].
toml::array& indexed_array(toml::table& holder, const PathStep& last, const std::string& path,
                           const std::string& source) {
  toml::node* node = holder.get(last.key);
  toml::array* array = node ? node->as_array() : nullptr;
  if (!array) fail_at({source, 0, path}, "'", last.key, "' is not an array");
  if (std::size_t(last.index) >= array->size())
    fail_at({source, 0, path}, "'", last.key, "' has ", array->size(), " elements, no [", last.index, "]");
  return *array;
}

toml::table parse_for_edit(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    fail_at({source, static_cast<int>(begin.line), ""}, "syntax error at column ", begin.column, ": ",
            describe(e));
  }
}

std::string serialised(const toml::table& root) {
  std::ostringstream os;
  os << root << "\n";
  return os.str();
}

void value_paths(const toml::node& node, const std::string& path, std::vector<std::string>& out) {
  if (const auto* table = node.as_table()) {
    for (const auto& [key, child] : *table)
      value_paths(child, path.empty() ? std::string(key.str()) : path + "." + std::string(key.str()), out);
  } else if (const auto* array = node.as_array()) {
    for (std::size_t i = 0; i < array->size(); ++i)
      value_paths(*array->get(i), path + "[" + std::to_string(i) + "]", out);
  } else {
    out.push_back(path);
  }
}

}  // namespace

std::string toml_with_value(std::string_view text, const std::string& source, const std::string& path,
                            const ConfigValue& value) {
  toml::table root = parse_for_edit(text, source);
  const std::vector<PathStep> steps = split_path(path, source);
  toml::table& holder = holder_of(root, steps, path, source);
  const PathStep& last = steps.back();
  if (last.index >= 0) {
    toml::array& array = indexed_array(holder, last, path, source);
    const toml::node* element = array.get(std::size_t(last.index));
    if (element->is_table() || element->is_array())
      fail_at({source, 0, path}, "holds ", describe(element->type()), ", not one value: give a deeper key");
    std::visit([&](const auto& v) { array.replace(array.cbegin() + last.index, v); }, value);
  } else {
    if (const toml::node* existing = holder.get(last.key); existing && (existing->is_table() || existing->is_array()))
      fail_at({source, 0, path}, "holds ", describe(existing->type()), ", not one value: give a deeper key");
    std::visit([&](const auto& v) { holder.insert_or_assign(last.key, v); }, value);
  }
  return serialised(root);
}

ConfigValue toml_value(std::string_view text, const std::string& source, const std::string& path) {
  toml::table root = parse_for_edit(text, source);
  const std::vector<PathStep> steps = split_path(path, source);
  toml::table& holder = holder_of(root, steps, path, source);
  const PathStep& last = steps.back();
  const toml::node* node = last.index >= 0 ? indexed_array(holder, last, path, source).get(std::size_t(last.index))
                                           : holder.get(last.key);
  if (!node) fail_at({source, 0, path}, "no such key");
  if (const auto* v = node->as_floating_point()) return v->get();
  if (const auto* v = node->as_integer()) return v->get();
  if (const auto* v = node->as_boolean()) return v->get();
  if (const auto* v = node->as_string()) return v->get();
  fail_at({source, 0, path}, "holds ", describe(node->type()), ", not one value: give a deeper key");
}

std::vector<std::string> toml_value_paths(std::string_view text, const std::string& source) {
  const toml::table root = parse_for_edit(text, source);
  std::vector<std::string> out;
  value_paths(root, "", out);
  return out;
}

std::string toml_normalised(std::string_view text, const std::string& source) {
  return serialised(parse_for_edit(text, source));
}

}  // namespace nanoscatter
