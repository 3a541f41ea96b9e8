// Pattern1D axes: names, 2θ ↔ Q ↔ d conversions, and the writer.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <sstream>

#include "nanoscatter/error.hpp"
#include "nanoscatter/io_text.hpp"
#include "nanoscatter/pattern1d.hpp"

namespace nanoscatter {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string number_text(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

}  // namespace

PatternAxis parse_pattern_axis(const std::string& name) {
  const std::string n = lower(name);
  if (n == "two_theta" || n == "2theta" || n == "tth" || n == "2th") return PatternAxis::two_theta;
  if (n == "q") return PatternAxis::q;
  if (n == "d") return PatternAxis::d;
  if (n == "r") return PatternAxis::r;
  fail_option("axis", "unknown axis '", name, "'; expected two_theta, q, d or r");
}

const char* pattern_axis_name(PatternAxis axis) {
  switch (axis) {
    case PatternAxis::two_theta: return "two_theta";
    case PatternAxis::q: return "q";
    case PatternAxis::d: return "d";
    case PatternAxis::r: return "r";
  }
  return "?";
}

PatternFormat parse_pattern_format(const std::string& name) {
  const std::string n = lower(name);
  if (n == "xy" || n == "dat" || n == "txt") return PatternFormat::xy;
  if (n == "xye") return PatternFormat::xye;
  if (n == "chi") return PatternFormat::chi;
  if (n == "gr") return PatternFormat::gr;
  if (n == "fxye" || n == "gsas" || n == "gsa") return PatternFormat::fxye;
  fail_option("format", "unknown pattern format '", name, "'; expected xy, xye, chi, gr or fxye");
}

double q_from_two_theta(double two_theta_deg, double wavelength) {
  if (!(wavelength > 0) || !std::isfinite(wavelength))
    fail_option("wavelength", "must be > 0 Å, got ", wavelength);
  const double theta = 0.5 * two_theta_deg * std::numbers::pi / 180.0;
  return 4.0 * std::numbers::pi * std::sin(theta) / wavelength;
}

double two_theta_from_q(double q, double wavelength) {
  if (!(wavelength > 0) || !std::isfinite(wavelength))
    fail_option("wavelength", "must be > 0 Å, got ", wavelength);
  const double s = q * wavelength / (4.0 * std::numbers::pi);
  if (!(s >= -1.0 && s <= 1.0))
    fail_option("wavelength", "Q = ", q, " Å⁻¹ is beyond 4π/λ = ", 4.0 * std::numbers::pi / wavelength,
                " Å⁻¹ (no 2θ reaches it)");
  return 2.0 * std::asin(s) * 180.0 / std::numbers::pi;
}

double d_from_q(double q) {
  if (!(q > 0)) fail_option("axis", "d = 2π/Q needs Q > 0, got ", q);
  return 2.0 * std::numbers::pi / q;
}

double q_from_d(double d) {
  if (!(d > 0)) fail_option("axis", "Q = 2π/d needs d > 0, got ", d);
  return 2.0 * std::numbers::pi / d;
}

Pattern1D convert_pattern(const Pattern1D& p, PatternAxis to) {
  if (p.axis == to) return p;
  if (p.axis == PatternAxis::r || to == PatternAxis::r)
    fail_at({p.source, 0, "axis"}, "cannot convert between ", pattern_axis_name(p.axis), " and ",
            pattern_axis_name(to), " (r is a PDF's axis)");
  if ((p.axis == PatternAxis::two_theta || to == PatternAxis::two_theta) && !p.wavelength)
    fail_at({p.source, 0, "wavelength"}, "converting ", pattern_axis_name(p.axis), " to ",
            pattern_axis_name(to), " needs the wavelength, which the file does not give");
  Pattern1D out = p;
  out.axis = to;
  try {
    for (double& x : out.x) {
      double q = x;
      if (p.axis == PatternAxis::two_theta) q = q_from_two_theta(x, *p.wavelength);
      if (p.axis == PatternAxis::d) q = q_from_d(x);
      if (to == PatternAxis::q) x = q;
      if (to == PatternAxis::two_theta) x = two_theta_from_q(q, *p.wavelength);
      if (to == PatternAxis::d) x = d_from_q(q);
    }
  } catch (const Error& e) {
    rethrow_with(e, {p.source, 0, ""});
  }
  // d = 2π/Q reverses the order; keep x increasing.
  if (p.axis == PatternAxis::d || to == PatternAxis::d) {
    std::reverse(out.x.begin(), out.x.end());
    std::reverse(out.y.begin(), out.y.end());
    std::reverse(out.sigma.begin(), out.sigma.end());
  }
  return out;
}

std::vector<double> read_q_points(const std::filesystem::path& path, const PatternReadOptions& options) {
  const Pattern1D pattern = read_pattern(path, options);
  if (pattern.axis == PatternAxis::r)
    throw Error({pattern.source, 0, "q_file", true}, "the file is a PDF (axis r); give a pattern in Q, 2θ or d");
  if (pattern.axis == PatternAxis::two_theta && !pattern.wavelength)
    throw Error({pattern.source, 0, "wavelength", true},
                "the file's axis is 2θ and it gives no wavelength: give one");
  return convert_pattern(pattern, PatternAxis::q).x;
}

void write_pattern(const std::filesystem::path& path, const Pattern1D& p, const PatternWriteOptions& options) {
  const std::string file = path.string();
  const std::string ext = lower(path.extension().string());
  if (ext != ".xy" && ext != ".xye" && ext != ".dat" && ext != ".txt")
    fail_at({file, 0, "output"}, "unknown extension '", ext, "'; patterns are written as .xy, .xye, .dat or .txt");
  if (p.y.size() != p.x.size() || (!p.sigma.empty() && p.sigma.size() != p.x.size()))
    fail_at({file, 0, "pattern"}, "x, y and σ differ in length (", p.x.size(), ", ", p.y.size(), ", ",
            p.sigma.size(), ")");
  if (ext == ".xye" && p.sigma.empty()) fail_at({file, 0, "sigma"}, ".xye needs σ; the pattern has none");

  PatternAxis first = p.axis;
  if (options.columns == PatternColumns::q) first = PatternAxis::q;
  if (options.columns == PatternColumns::two_theta || options.columns == PatternColumns::both)
    first = PatternAxis::two_theta;
  Pattern1D main;
  try {
    main = convert_pattern(p, first);
  } catch (const Error& e) {
    rethrow_with(e, {file, 0, ""});
  }
  TextTable t;
  t.header_lines = options.header_lines;
  t.header_lines.push_back(std::string("axis = ") + pattern_axis_name(first));
  if (p.wavelength) t.header_lines.push_back("wavelength = " + number_text(*p.wavelength));
  for (const auto& [key, value] : p.metadata) {
    if (key.empty() || value.empty() || key.find_first_of(" =\r\n") != std::string::npos ||
        value.find_first_of("\r\n") != std::string::npos)
      fail_at({file, 0, "metadata"}, "key '", key, "' or its value cannot be written as a 'key = value' line");
    if (key == "axis" || key == "wavelength" || key == "columns")
      fail_at({file, 0, "metadata"}, "key '", key, "' is the writer's own (give the pattern's axis or wavelength)");
    t.header_lines.push_back(key + " = " + value);
  }
  static const char* names[] = {"2theta", "Q", "d", "r"};
  static const char* units[] = {"deg", "1/Å", "Å", "Å"};
  t.column_names = {names[int(first)], "I"};
  t.column_units = {units[int(first)], ""};
  t.columns = {main.x, main.y};
  if (!p.sigma.empty()) {
    t.column_names.push_back("sigma");
    t.column_units.push_back("");
    t.columns.push_back(main.sigma);
  }
  if (options.columns == PatternColumns::both) {
    std::vector<double> q = main.x;
    for (double& v : q) v = q_from_two_theta(v, *p.wavelength);
    t.column_names.push_back("Q");
    t.column_units.push_back("1/Å");
    t.columns.push_back(std::move(q));
    std::string cols = "columns =";
    for (const auto& n : t.column_names) cols += " " + n;
    t.header_lines.push_back(cols);
  }
  write_text_table(path, t);
}

}  // namespace nanoscatter
