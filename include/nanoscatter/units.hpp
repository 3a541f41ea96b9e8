// Numbers that may carry their unit, as BornAgain users write 5*nm or
// 50*angstrom: "5 nm", "5nm", "50 Å", "0.5 µm", "1 mm", "0.2 deg",
// "3.5 mrad", "12 keV". A bare number keeps the meaning its engine gives it
// (docs/conventions.md: Å for atoms, nm for GISAXS, mm for detectors, the
// wavelength's unit for dda and mie), so every input written before units
// were accepted reads as it did.
//
// Spellings (case matters: "mm" is not "Mm"):
//   length  Å (U+00C5 or U+212B), angstrom, nm, um, µm (U+00B5 or U+03BC),
//           mm, cm, m
//   angle   deg, °, rad, mrad, urad, µrad
//   energy  eV, keV (only where a wavelength is read: λ = hc/E)
// "A" is refused, with a hint: it is the ampere's symbol, and "50 A" beside
// "5 nm" is the misreading the units are here to prevent; "Å" or
// "angstrom" say it without doubt.
//
// Every error is one line naming the field (fail_at(where, ...)): an unknown
// unit, a unit of the wrong kind (a length where an angle is read), a number
// that is not finite, a negative one where the caller says it is
// meaningless, or text that is not a number.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "nanoscatter/error.hpp"

namespace nanoscatter::units {

// The unit a value is wanted in, and the unit of a bare number.
enum class Length { angstrom, nm, um, mm, m };
enum class Angle { deg, rad };

// Whether a negative number makes sense for the field.
enum class Sign { any, non_negative };

// A number and the unit written after it, as read.
struct Quantity {
  double number = 0;
  std::string unit;  // "" for a bare number
};

// "5 nm" → {5, "nm"}; "5" → {5, ""}; spaces between number and unit are
// optional. Text that does not start with a finite number is an error.
Quantity split(std::string_view text, const Where& where);

// The value of `text` in `unit`; a bare number is taken to be in `bare`.
double length(std::string_view text, Length unit, Length bare, const Where& where, Sign sign = Sign::any);
double angle(std::string_view text, Angle unit, Angle bare, const Where& where, Sign sign = Sign::any);
// A wavelength: a length, or a photon energy (eV, keV, > 0) turned into
// hc/E. A bare number is a length in `bare`. Ranges are the caller's to
// check (each engine's validate()), as for every value here.
double wavelength(std::string_view text, Length unit, Length bare, const Where& where);
// hc/E in `unit` for a photon energy E in keV (> 0): one formula for every
// reader, so "12 keV" and an energy key of 12 give the same wavelength.
double wavelength_of_energy(double kev, Length unit);
// A photon energy in keV: "12 keV", "12000 eV", or a bare number of keV.
double energy_kev(std::string_view text, const Where& where);

// Whether `text` names a unit ("5 nm" yes, "5" no); errors as split().
bool has_unit(std::string_view text, const Where& where);

// ADDA's convention (dda, mie): lengths in any one unit, the wavelength's.
// `texts` are all the lengths of one run, each with the field it came from;
// either every one is bare (returned as written) or every one carries a
// unit (returned in nm). A mix is refused, naming the bare one: it has no
// unit to be read in. Wavelengths among them may also be energies.
struct LengthText {
  std::string text;
  Where where;
  bool is_wavelength = false;
};
std::vector<double> same_unit_lengths(const std::vector<LengthText>& texts);

// A unit named by itself ("nm", "Å", "angstrom", "deg"), for callers that
// state the unit they want (Python's nanoscatter.units); cm has no Length.
Length length_unit(std::string_view name, const Where& where);
Angle angle_unit(std::string_view name, const Where& where);

// Names for messages and output headers: "Å", "nm", "µm", "mm", "m"; "deg", "rad".
const char* name(Length unit);
const char* name(Angle unit);

}  // namespace nanoscatter::units
