// The unit parser of units.hpp. Lengths convert through powers of ten of
// the metre, one correctly rounded multiplication or division by an exact
// power of ten, so "0.5 um" in nm is exactly 500 and "50 Å" exactly 5 (a
// value such as "1.54 Å" may differ from 0.154 written in nm by one unit
// in the last place).
#include "nanoscatter/units.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "nanoscatter/constants.hpp"

namespace nanoscatter::units {

namespace {

struct Spelling {
  const char* text;
  int exponent;  // lengths: 10^exponent m
};

// Å is both U+00C5 (Latin) and U+212B (the angstrom sign); µ is both
// U+00B5 (micro sign) and U+03BC (Greek mu): keyboards give either.
constexpr Spelling kLengths[] = {{"Å", -10},  {"Å", -10}, {"angstrom", -10}, {"nm", -9}, {"um", -6},
                                 {"µm", -6}, {"μm", -6},  {"mm", -3},        {"cm", -2}, {"m", 0}};
constexpr const char* kLengthList = "Å, angstrom, nm, um, µm, mm, cm, m";

// Radians = number · factor / divisor: milli and micro divide by an exact
// power of ten (3.5 mrad is 0.0035 rad to the last bit, not 3.5 · 1e-3).
struct AngleSpelling {
  const char* text;
  double factor, divisor;
};
constexpr AngleSpelling kAngles[] = {{"deg", kDegree, 1},  {"°", kDegree, 1},   {"rad", 1, 1},
                                     {"mrad", 1, 1e3},     {"urad", 1, 1e6},    {"µrad", 1, 1e6}, {"μrad", 1, 1e6}};
constexpr const char* kAngleList = "deg, °, rad, mrad, urad, µrad";

struct EnergySpelling {
  const char* text;
  double per_kev;  // keV = number / per_kev
};
constexpr EnergySpelling kEnergies[] = {{"keV", 1}, {"eV", 1e3}};

int exponent_of(Length unit) {
  switch (unit) {
    case Length::angstrom: return -10;
    case Length::nm: return -9;
    case Length::um: return -6;
    case Length::mm: return -3;
    case Length::m: return 0;
  }
  return 0;
}

// value · 10^shift, with one exact power of ten (|shift| ≤ 22 is exact).
double shift_decimal(double value, int shift) {
  const double p = std::pow(10.0, std::abs(shift));
  return shift >= 0 ? value * p : value / p;
}

const int* length_exponent(const std::string& unit) {
  for (const Spelling& s : kLengths)
    if (unit == s.text) return &s.exponent;
  return nullptr;
}
const AngleSpelling* angle_spelling(const std::string& unit) {
  for (const AngleSpelling& s : kAngles)
    if (unit == s.text) return &s;
  return nullptr;
}
const double* energy_per_kev(const std::string& unit) {
  for (const EnergySpelling& s : kEnergies)
    if (unit == s.text) return &s.per_kev;
  return nullptr;
}

// The complaint for a unit that is not of the wanted kind.
[[noreturn]] void bad_unit(const Quantity& q, std::string_view text, const char* wanted, const char* list,
                           const Where& where) {
  if (q.unit == "A" || q.unit == "Angstrom" || q.unit == "ang")
    fail_at(where, "'", q.unit, "' in '", text, "' is not a unit here (A is the ampere): write Å or angstrom");
  const char* kind = length_exponent(q.unit) ? "a length"
                     : angle_spelling(q.unit) ? "an angle"
                     : energy_per_kev(q.unit) ? "an energy"
                                              : nullptr;
  if (kind) fail_at(where, "'", text, "' is ", kind, "; give ", wanted, " (", list, ")");
  fail_at(where, "unknown unit '", q.unit, "' in '", text, "'; give ", wanted, " (", list, ")");
}

void check_sign(double value, std::string_view text, Sign sign, const Where& where) {
  if (sign == Sign::non_negative && value < 0) fail_at(where, "must not be negative, got '", text, "'");
}

}  // namespace

Quantity split(std::string_view text, const Where& where) {
  const std::string s(text);
  const std::size_t start = s.find_first_not_of(' ');
  const char* begin = s.c_str() + (start == std::string::npos ? s.size() : start);
  char* end = nullptr;
  Quantity q;
  q.number = std::strtod(begin, &end);
  if (end == begin) fail_at(where, "expected a number with an optional unit (\"5 nm\"), got '", text, "'");
  if (!std::isfinite(q.number)) fail_at(where, "must be a finite number, got '", text, "'");
  std::string unit(end);
  const std::size_t first = unit.find_first_not_of(' '), last = unit.find_last_not_of(' ');
  q.unit = first == std::string::npos ? "" : unit.substr(first, last - first + 1);
  return q;
}

bool has_unit(std::string_view text, const Where& where) { return !split(text, where).unit.empty(); }

double length(std::string_view text, Length unit, Length bare, const Where& where, Sign sign) {
  const Quantity q = split(text, where);
  int from = exponent_of(bare);
  if (!q.unit.empty()) {
    const int* e = length_exponent(q.unit);
    if (!e) bad_unit(q, text, "a length", kLengthList, where);
    from = *e;
  }
  check_sign(q.number, text, sign, where);
  return shift_decimal(q.number, from - exponent_of(unit));
}

double angle(std::string_view text, Angle unit, Angle bare, const Where& where, Sign sign) {
  const Quantity q = split(text, where);
  const AngleSpelling& to = *angle_spelling(name(unit));
  const AngleSpelling* from = angle_spelling(name(bare));
  if (!q.unit.empty()) {
    from = angle_spelling(q.unit);
    if (!from) bad_unit(q, text, "an angle", kAngleList, where);
  }
  check_sign(q.number, text, sign, where);
  // A number already in the wanted unit is returned untouched (no ·π/180·180/π).
  if (from->factor == to.factor && from->divisor == to.divisor) return q.number;
  const double radians = q.number * from->factor / from->divisor;
  return to.factor == 1 ? radians : radians / to.factor;
}

double energy_kev(std::string_view text, const Where& where) {
  const Quantity q = split(text, where);
  double per_kev = 1;
  if (!q.unit.empty()) {
    const double* k = energy_per_kev(q.unit);
    if (!k) bad_unit(q, text, "a photon energy", "keV, eV", where);
    per_kev = *k;
  }
  return q.number / per_kev;
}

double wavelength_of_energy(double kev, Length unit) {
  return shift_decimal(kHcKeVAngstrom / kev, exponent_of(Length::angstrom) - exponent_of(unit));
}

double wavelength(std::string_view text, Length unit, Length bare, const Where& where) {
  const Quantity q = split(text, where);
  if (const double* k = energy_per_kev(q.unit)) {
    if (!(q.number > 0)) fail_at(where, "must be a positive photon energy, got '", text, "'");
    return wavelength_of_energy(q.number / *k, unit);
  }
  if (!q.unit.empty() && !length_exponent(q.unit))
    bad_unit(q, text, "a length or a photon energy", "Å, angstrom, nm, um, µm, mm, cm, m; keV, eV", where);
  return length(text, unit, bare, where);
}

std::vector<double> same_unit_lengths(const std::vector<LengthText>& texts) {
  const LengthText* with_unit = nullptr;
  const LengthText* bare = nullptr;
  for (const LengthText& t : texts) (has_unit(t.text, t.where) ? with_unit : bare) = &t;
  if (with_unit && bare)
    fail_at(bare->where, "'", bare->text, "' has no unit while ", with_unit->where.field, " has one ('",
            with_unit->text, "'): give units to all lengths or to none");
  std::vector<double> out;
  for (const LengthText& t : texts) {
    if (t.is_wavelength)
      out.push_back(wavelength(t.text, Length::nm, Length::nm, t.where));
    else
      out.push_back(with_unit ? length(t.text, Length::nm, Length::nm, t.where) : split(t.text, t.where).number);
  }
  return out;
}

Length length_unit(std::string_view name, const Where& where) {
  const int* e = length_exponent(std::string(name));
  for (Length unit : {Length::angstrom, Length::nm, Length::um, Length::mm, Length::m})
    if (e && *e == exponent_of(unit)) return unit;
  fail_at(where, "unknown length unit '", name, "' (Å, angstrom, nm, um, µm, mm, m)");
}

Angle angle_unit(std::string_view name, const Where& where) {
  if (name == "deg" || name == "°") return Angle::deg;
  if (name == "rad") return Angle::rad;
  fail_at(where, "unknown angle unit '", name, "' (deg, °, rad)");
}

const char* name(Length unit) {
  switch (unit) {
    case Length::angstrom: return "Å";
    case Length::nm: return "nm";
    case Length::um: return "µm";
    case Length::mm: return "mm";
    case Length::m: return "m";
  }
  return "";
}

const char* name(Angle unit) { return unit == Angle::deg ? "deg" : "rad"; }

}  // namespace nanoscatter::units
