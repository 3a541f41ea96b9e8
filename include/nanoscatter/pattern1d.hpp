// One-dimensional measured patterns: powder diffraction I(2θ) or I(Q) and
// pair distribution functions G(r), read from the files reduction programs
// write and written back as '#'-headed text.
//
// Formats (chosen by extension; PatternReadOptions::format overrides):
//   .xy .dat .txt  two or three columns x, y[, σ]; '#' comment lines. The axis
//                  is the header's "# axis = ..." line, else a column-name
//                  line starting with Q, 2theta, d or r (the engines' "# Q I"),
//                  else the `axis` option, else 2θ in degrees.
//   .xye           three columns x, y, σ (axis as for .xy).
//   .chi           pyFAI ('#' header naming the unit: 2th_deg, q_nm^-1,
//                  q_A^-1, r_mm is refused) or Fit2D (four header lines:
//                  title, axis label, intensity label, number of points).
//                  Q in nm⁻¹ is converted to Å⁻¹; pyFAI's "Wavelength: 1e-10 m"
//                  is read (in Å).
//   .gr            PDFgui / PDFgetX2/X3 / PDFgetN: a free header up to a line
//                  containing "start data" (then '#' lines), or no header;
//                  two to four columns: r G | r G dG | r G dr dG. The header's
//                  key=value pairs give metadata Qmax, Qmin, Qdamp, Qbroad,
//                  stype (X or N; inferred from "PDFgetN" / "PDFgetX" when not
//                  stated) and the wavelength (lambda= or wavelength=).
//   .fxye .gsa .gsas  GSAS: title line, then the first "BANK n nchan nrec CONS
//                  start step 0 0 FXYE" bank, 2θ in centidegrees, columns x y σ.
//
// Axis conventions and conversions (λ in Å, 2θ in degrees):
//   Q = 4π sin(θ)/λ  (Å⁻¹),  2θ = 2 asin(Qλ/4π),  d = 2π/Q (Å).
// r (Å, a PDF) converts to nothing.
//
// Checks (one-line Error "file:line: field: reason"): x strictly increasing,
// σ ≥ 0, every value finite, the column count of the format, at least one
// data row, at most max_rows rows (checked while streaming and against a
// declared count before anything is allocated).
#pragma once
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nanoscatter {

enum class PatternAxis { two_theta, q, d, r };
enum class PatternFormat { automatic, xy, xye, chi, gr, fxye };

// "two_theta" (also "2theta", "tth"), "q", "d", "r".
PatternAxis parse_pattern_axis(const std::string& name);
// "two_theta", "q", "d", "r".
const char* pattern_axis_name(PatternAxis axis);
// "xy" (also "dat", "txt"), "xye", "chi", "gr", "fxye" (also "gsas").
PatternFormat parse_pattern_format(const std::string& name);

struct Pattern1D {
  PatternAxis axis = PatternAxis::two_theta;
  std::vector<double> x;                 // strictly increasing
  std::vector<double> y;
  std::vector<double> sigma;             // empty, or one σ ≥ 0 per point
  std::optional<double> wavelength;      // Å
  std::map<std::string, std::string> metadata;  // Qmax, Qmin, Qdamp, Qbroad, stype, ...
  std::string source;                    // the file read
  std::string format;                    // "xy", "xye", "chi", "gr", "fxye"
};

struct PatternReadOptions {
  PatternFormat format = PatternFormat::automatic;
  // The axis of a file that does not say (.xy/.dat/.txt/.xye, Fit2D .chi);
  // an error when the file says otherwise.
  std::optional<PatternAxis> axis;
  // Overrides the file's wavelength (Å).
  std::optional<double> wavelength;
  std::size_t max_rows = 100'000'000;
};

Pattern1D read_pattern(const std::filesystem::path& path, const PatternReadOptions& options = {});

// Which x column(s) a writer puts out. both: 2θ first, then y, σ, then Q.
enum class PatternColumns { native, q, two_theta, both };

struct PatternWriteOptions {
  PatternColumns columns = PatternColumns::native;
  std::vector<std::string> header_lines;  // written first, each after "# "
};

// .xy/.dat/.txt/.xye (σ is required for .xye and written where present for
// the others). The header says "axis = ...", "wavelength = ..." and the
// metadata as "key = value" lines, so that read_pattern reads the file back
// as it was. Written atomically (the file appears whole or not at all).
void write_pattern(const std::filesystem::path& path, const Pattern1D& pattern,
                   const PatternWriteOptions& options = {});

// Conversions (throw for a Q beyond 4π/λ, λ ≤ 0, Q ≤ 0 for d).
double q_from_two_theta(double two_theta_deg, double wavelength);
double two_theta_from_q(double q, double wavelength);
double d_from_q(double q);
double q_from_d(double d);

// The pattern on another axis (x kept increasing: Q → d reverses the order).
// Errors name the file and "wavelength" when 2θ is involved without one,
// and "axis" for r.
Pattern1D convert_pattern(const Pattern1D& pattern, PatternAxis to);

// The Q points (Å⁻¹) of a measured pattern, for an engine's Q list (debye
// --q-file): x as it is on a Q axis, from 2θ with the file's or the options'
// wavelength, from d (reordered increasing). Errors name the file and the
// option at fault: "q_file" for a PDF (axis r), "wavelength" for 2θ without one.
std::vector<double> read_q_points(const std::filesystem::path& path, const PatternReadOptions& options = {});

}  // namespace nanoscatter
