#include "structure/symmetry.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include "nanoscatter/error.hpp"

namespace nanoscatter {
namespace {

// Reads an unsigned constant at text[pos]: "1", "0.5", "1/2", "3/4", ".25".
double read_constant(const std::string& text, std::size_t& pos, const std::string& whole) {
  auto read_decimal = [&](std::size_t& p) {
    const std::size_t begin = p;
    while (p < text.size() && (std::isdigit(static_cast<unsigned char>(text[p])) || text[p] == '.')) ++p;
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + p, value);
    if (begin == p || ec != std::errc() || ptr != text.data() + p)
      fail("bad number '", text.substr(begin, p - begin), "' in symmetry operation '", whole, "'");
    return value;
  };
  double value = read_decimal(pos);
  if (pos < text.size() && text[pos] == '/') {
    ++pos;
    const double denominator = read_decimal(pos);
    if (denominator == 0) fail("division by zero in symmetry operation '", whole, "'");
    value /= denominator;
  }
  return value;
}

// One component such as "-x+1/2", "x-y", "1/2+z", "2*x", "+y".
void parse_component(const std::string& text, const std::string& whole, Vec3& row, double& shift) {
  row = Vec3{};
  shift = 0;
  std::size_t pos = 0;
  bool any_term = false;
  while (pos < text.size()) {
    double sign = 1;
    if (text[pos] == '+' || text[pos] == '-') {
      sign = text[pos] == '-' ? -1 : 1;
      ++pos;
    } else if (any_term) {
      fail("expected + or - at '", text.substr(pos), "' in symmetry operation '", whole, "'");
    }
    if (pos >= text.size()) fail("dangling sign in symmetry operation '", whole, "'");
    double factor = 1;
    bool have_constant = false;
    if (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.') {
      factor = read_constant(text, pos, whole);
      have_constant = true;
      if (pos < text.size() && text[pos] == '*') ++pos;
    }
    const char axis = pos < text.size() ? static_cast<char>(std::tolower(static_cast<unsigned char>(text[pos]))) : 0;
    if (axis == 'x' || axis == 'y' || axis == 'z') {
      row[axis - 'x'] += sign * factor;
      ++pos;
    } else if (have_constant) {
      shift += sign * factor;
    } else {
      fail("unexpected '", text.substr(pos), "' in symmetry operation '", whole, "'");
    }
    any_term = true;
  }
  if (!any_term) fail("empty component in symmetry operation '", whole, "'");
}

}  // namespace

SymmetryOp parse_symmetry_op(const std::string& text) {
  std::string compact;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) compact += ch;
  std::vector<std::string> parts(1);
  for (char ch : compact) {
    if (ch == ',') parts.emplace_back();
    else parts.back() += ch;
  }
  if (parts.size() != 3) fail("symmetry operation '", text, "' does not have three components");
  SymmetryOp op;
  for (int i = 0; i < 3; ++i) parse_component(parts[i], text, op.rotation.row[i], op.translation[i]);
  if (std::abs(determinant(op.rotation)) < 0.5)
    fail("symmetry operation '", text, "' is singular");
  return op;
}

Vec3 wrap_fractional(const Vec3& f) {
  Vec3 w;
  for (int i = 0; i < 3; ++i) {
    w[i] = f[i] - std::floor(f[i]);
    // f − floor(f) rounds to 1.0 for tiny negative f (−1e-17).
    if (w[i] >= 1) w[i] = 0;
  }
  return w;
}

double periodic_distance(const Vec3& f1, const Vec3& f2) {
  double worst = 0;
  for (int i = 0; i < 3; ++i) {
    const double d = f1[i] - f2[i];
    worst = std::fmax(worst, std::abs(d - std::round(d)));
  }
  return worst;
}

std::vector<Vec3> site_orbit(const Vec3& site, const std::vector<SymmetryOp>& ops,
                             double merge_tolerance) {
  std::vector<Vec3> orbit;
  for (const auto& op : ops) {
    const Vec3 image = wrap_fractional(op.apply(site));
    bool duplicate = false;
    for (const auto& seen : orbit)
      if (periodic_distance(seen, image) <= merge_tolerance) {
        duplicate = true;
        break;
      }
    if (!duplicate) orbit.push_back(image);
  }
  return orbit;
}

}  // namespace nanoscatter
