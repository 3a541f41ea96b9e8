// Pattern1D readers: .xy/.dat/.txt/.xye, pyFAI/Fit2D .chi, PDF .gr and GSAS
// .fxye. Rows are streamed (the row cap is checked before a row is kept) and
// every failure names file:line and the field at fault.
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <string_view>
#include <system_error>

#include "core/number_text.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/pattern1d.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_comment(std::string_view line) {
  const auto t = trim(line);
  return !t.empty() && t.front() == '#';
}

// One number token in full, or nullopt.
std::optional<double> to_number(std::string_view token) { return number_from_text(token).value; }

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (true) {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
    if (pos == s.size()) break;
    std::size_t end = pos;
    while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end]))) ++end;
    out.push_back(s.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

// Streams data rows into a Pattern1D, with the checks every format shares.
class RowSink {
 public:
  RowSink(Pattern1D& p, std::size_t max_rows) : p_(p), max_rows_(max_rows) {}

  // x, y and optionally σ (nullptr: the format has none).
  void add(double x, double y, const double* sigma, int line) {
    if (p_.x.size() >= max_rows_)
      fail_at({p_.source, line, "rows"}, "more than ", max_rows_, " data rows (the reader's limit)");
    auto finite = [&](double v, const char* field) {
      if (!std::isfinite(v)) fail_at({p_.source, line, field}, "not a finite number: ", v);
    };
    finite(x, "x");
    finite(y, "y");
    if (sigma) {
      finite(*sigma, "sigma");
      if (*sigma < 0) fail_at({p_.source, line, "sigma"}, "negative σ: ", *sigma);
    }
    if (!p_.x.empty() && x == p_.x.back())
      fail_at({p_.source, line, "x"}, "duplicate x ", x, " (as on line ", last_line_, ")");
    if (!p_.x.empty() && !(x > p_.x.back()))
      fail_at({p_.source, line, "x"}, "x not increasing: ", x, " after ", p_.x.back(), " on line ", last_line_);
    p_.x.push_back(x);
    p_.y.push_back(y);
    if (sigma) p_.sigma.push_back(*sigma);
    last_line_ = line;
  }
  void finish(int lines) {
    if (p_.x.empty()) fail_at({p_.source, lines, ""}, "no data rows");
  }

 private:
  Pattern1D& p_;
  std::size_t max_rows_;
  int last_line_ = 0;
};

// Numbers of a data line; errors name the column.
std::vector<double> numbers(std::string_view line, const std::string& file, int line_no) {
  std::vector<double> v;
  for (auto tok : split(line)) {
    const auto n = to_number(tok);
    if (!n)
      fail_at({file, line_no, "column " + std::to_string(v.size() + 1)}, "not a number: '", tok, "'");
    v.push_back(*n);
  }
  return v;
}

void expect_columns(const std::vector<double>& v, std::size_t lo, std::size_t hi, const std::string& file,
                    int line_no, const char* what) {
  if (v.size() < lo || v.size() > hi)
    fail_at({file, line_no, "columns"}, "row has ", v.size(), " values; ", what);
}

// "key = value" pairs in a header line (any number of them).
void key_values(std::string_view line, std::map<std::string, std::pair<std::string, int>>& into, int line_no) {
  static const std::regex pair(R"(([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^\s,;]+))");
  const std::string s(line);
  for (auto it = std::sregex_iterator(s.begin(), s.end(), pair); it != std::sregex_iterator(); ++it) {
    const std::string key = lower((*it)[1].str());
    into.emplace(key, std::make_pair((*it)[2].str(), line_no));  // first occurrence wins
  }
}

double header_number(const std::string& file, int line, const std::string& field, const std::string& text) {
  const auto v = to_number(text);
  if (!v || !std::isfinite(*v)) fail_at({file, line, field}, "not a finite number: '", text, "'");
  return *v;
}

void set_axis(Pattern1D& p, PatternAxis from_file, int line, const PatternReadOptions& o) {
  if (o.axis && *o.axis != from_file)
    fail_at({p.source, line, "axis"}, "the file's axis is ", pattern_axis_name(from_file), ", not ",
            pattern_axis_name(*o.axis));
  p.axis = from_file;
}

// ---- .xy .dat .txt .xye ---------------------------------------------------

void read_xy(std::istream& in, Pattern1D& p, const PatternReadOptions& o, bool xye) {
  RowSink sink(p, o.max_rows);
  std::string line;
  int n = 0;
  std::optional<int> declared_columns;
  bool sigma_column = xye;
  bool axis_set = false;
  std::string names_line;  // the last comment line before the data: column names?
  int names_line_no = 0;
  while (std::getline(in, line)) {
    ++n;
    if (is_comment(line) && p.x.empty()) names_line = line, names_line_no = n;
    if (is_comment(line)) {
      // Only a line that is one "key = value" pair counts (so that a command
      // line in the header, "--qmax=12", is not taken for one).
      static const std::regex one(R"(^\s*#\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*\S)\s*$)");
      std::smatch m;
      if (!std::regex_match(line, m, one)) continue;
      const std::string key = lower(m[1].str()), value = m[2].str();
      if (key == "axis") {
        PatternAxis a;
        try {
          a = parse_pattern_axis(value);
        } catch (const Error& e) {
          fail_at({p.source, n, "axis"}, e.reason());
        }
        set_axis(p, a, n, o);
        axis_set = true;
      } else if (key == "wavelength") {
        p.wavelength = header_number(p.source, n, "wavelength", value);
      } else if (key == "columns") {
        const auto names = split(value);
        // Rows are read as x, y[, σ]: a header naming fewer columns
        // describes another file (a fuzzer's "columns = 51q" let one-value
        // rows through to the x, y read).
        if (names.size() < 2)
          fail_at({p.source, n, "columns"}, "names ", names.size(), " column(s); a pattern has at least x and y");
        declared_columns = int(names.size());
        sigma_column = names.size() >= 3 && names[2] == "sigma";
      } else {
        p.metadata[m[1].str()] = value;
      }
      continue;
    }
    if (trim(line).empty()) continue;
    if (p.x.empty() && !axis_set) {
      // A column-name line such as the engines' "# Q I" says the axis.
      const auto names = split(trim(names_line).substr(names_line.empty() ? 0 : 1));
      if (!names.empty()) {
        const std::string first = lower(std::string(names[0]));
        std::optional<PatternAxis> a;
        if (first == "q") a = PatternAxis::q;
        if (first == "2theta" || first == "2θ" || first == "tth" || first == "two_theta") a = PatternAxis::two_theta;
        if (first == "d") a = PatternAxis::d;
        if (first == "r") a = PatternAxis::r;
        if (a) set_axis(p, *a, names_line_no, o), axis_set = true;
      }
    }
    const auto v = numbers(line, p.source, n);
    if (declared_columns) {
      expect_columns(v, *declared_columns, *declared_columns, p.source, n, "the header's 'columns =' names a different count");
    } else if (xye) {
      expect_columns(v, 3, 3, p.source, n, ".xye has three: x, y, σ");
    } else {
      expect_columns(v, 2, 3, p.source, n, "expected two or three: x, y[, σ]");
      if (p.x.empty()) sigma_column = v.size() == 3;
      else if ((v.size() == 3) != sigma_column)
        fail_at({p.source, n, "columns"}, "row has ", v.size(), " values, the first row had ", sigma_column ? 3 : 2);
    }
    sink.add(v[0], v[1], sigma_column ? &v[2] : nullptr, n);
  }
  sink.finish(n);
  if (!axis_set) p.axis = o.axis.value_or(PatternAxis::two_theta);
}

// Every token of the line is a number (and there is one).
bool numbers_ok(const std::string& line) {
  const auto t = split(line);
  if (t.empty()) return false;
  for (auto tok : t)
    if (!to_number(tok)) return false;
  return true;
}

// ---- .chi -----------------------------------------------------------------

void read_chi(std::istream& in, Pattern1D& p, const PatternReadOptions& o) {
  RowSink sink(p, o.max_rows);
  std::string line;
  int n = 0;
  std::optional<PatternAxis> axis;
  double x_scale = 1;
  int axis_line = 0;
  std::optional<std::size_t> declared;  // Fit2D's point count
  int declared_line = 0;
  bool fit2d = false;
  auto unit_from = [&](const std::string& text, int line_no) {
    const std::string t = lower(text);
    if (t.find("q_nm^-1") != std::string::npos || t.find("q (nm") != std::string::npos) {
      axis = PatternAxis::q, x_scale = 0.1;
    } else if (t.find("q_a^-1") != std::string::npos || t.find("q (a") != std::string::npos ||
               t.find("q (å") != std::string::npos) {
      axis = PatternAxis::q, x_scale = 1;
    } else if (t.find("2th_deg") != std::string::npos || t.find("2-theta") != std::string::npos ||
               t.find("2theta") != std::string::npos) {
      axis = PatternAxis::two_theta, x_scale = 1;
    } else if (t.find("2th_rad") != std::string::npos) {
      axis = PatternAxis::two_theta, x_scale = 180.0 / 3.14159265358979323846;
    } else if (t.find("r_mm") != std::string::npos || t.find("chi_deg") != std::string::npos) {
      fail_at({p.source, line_no, "unit"}, "unsupported x unit in '", trim(text), "' (2θ or Q only)");
    } else {
      return;
    }
    axis_line = line_no;
  };
  while (std::getline(in, line)) {
    ++n;
    if (n == 1 && !is_comment(line) && !numbers_ok(line)) fit2d = true;
    if (fit2d && n <= 4) {
      if (n == 2) unit_from(line, n);
      if (n == 4) {
        const auto v = to_number(trim(line));
        if (!v || !whole_number(*v, 1))
          fail_at({p.source, n, "points"}, "Fit2D .chi: line 4 must be the number of points, got '", trim(line), "'");
        if (*v > double(o.max_rows))
          fail_at({p.source, n, "points"}, *v, " points is more than the reader's limit ", o.max_rows);
        declared = std::size_t(*v);
        declared_line = n;
      }
      continue;
    }
    if (is_comment(line)) {
      const std::string t = lower(line);
      if (const auto k = t.find("wavelength:"); k != std::string::npos) {
        auto parts = split(std::string_view(line).substr(k + 11));
        if (!parts.empty()) {
          std::string value(parts[0]);
          std::string unit = parts.size() > 1 ? std::string(parts[1]) : "";
          // pyFAI writes "1.0332e-10m" or "1.0332e-10 m" (meters).
          if (!value.empty() && value.back() == 'm') value.pop_back(), unit = "m";
          double w = header_number(p.source, n, "wavelength", value);
          if (unit == "m" || w < 1e-6) w *= 1e10;
          if (!o.wavelength) p.wavelength = w;
        }
      } else {
        unit_from(line, n);
      }
      continue;
    }
    if (trim(line).empty()) continue;
    const auto v = numbers(line, p.source, n);
    expect_columns(v, 2, 3, p.source, n, ".chi has two or three: x, y[, σ]");
    if (!p.x.empty() && (v.size() == 3) != !p.sigma.empty())
      fail_at({p.source, n, "columns"}, "row has ", v.size(), " values, the first row had ", p.sigma.empty() ? 2 : 3);
    sink.add(v[0] * x_scale, v[1], v.size() == 3 ? &v[2] : nullptr, n);
  }
  sink.finish(n);
  if (declared && *declared != p.x.size())
    fail_at({p.source, declared_line, "points"}, "Fit2D header says ", *declared, " points, the file has ",
            p.x.size());
  if (axis) set_axis(p, *axis, axis_line, o);
  else p.axis = o.axis.value_or(PatternAxis::two_theta);
}

// ---- .gr ------------------------------------------------------------------

void read_gr(std::istream& in, Pattern1D& p, const PatternReadOptions& o) {
  // The header runs to a "start data" line when there is one: a first pass
  // finds it (keeping nothing), the second streams the rows.
  std::string line;
  int start = 0;  // 1-based line of "start data", 0 if none
  for (int n = 1; std::getline(in, line); ++n) {
    if (lower(line).find("start data") != std::string::npos) {
      start = n;
      break;
    }
  }
  in.clear();
  in.seekg(0);
  std::map<std::string, std::pair<std::string, int>> kv;
  std::string header_text;
  RowSink sink(p, o.max_rows);
  int ncols = 0;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (n <= start || is_comment(line)) {
      key_values(line, kv, n);
      header_text += lower(line) + "\n";
      continue;
    }
    if (trim(line).empty()) continue;
    const auto v = numbers(line, p.source, n);
    expect_columns(v, 2, 4, p.source, n, ".gr has two to four: r G | r G dG | r G dr dG");
    if (ncols == 0) ncols = int(v.size());
    else if (int(v.size()) != ncols)
      fail_at({p.source, n, "columns"}, "row has ", v.size(), " values, the first row had ", ncols);
    const double* dg = ncols == 3 ? &v[2] : ncols == 4 ? &v[3] : nullptr;
    sink.add(v[0], v[1], dg, n);
  }
  sink.finish(n);
  p.axis = PatternAxis::r;
  if (o.axis && *o.axis != PatternAxis::r)
    fail_at({p.source, 0, "axis"}, "a .gr file's axis is r, not ", pattern_axis_name(*o.axis));
  for (const auto& [key, name] : std::vector<std::pair<std::string, std::string>>{
           {"qmax", "Qmax"}, {"qmin", "Qmin"}, {"qdamp", "Qdamp"}, {"qbroad", "Qbroad"}}) {
    if (const auto it = kv.find(key); it != kv.end()) {
      header_number(p.source, it->second.second, name, it->second.first);
      p.metadata[name] = it->second.first;
    }
  }
  if (const auto it = kv.find("stype"); it != kv.end()) {
    const std::string s = lower(it->second.first);
    if (s != "x" && s != "n")
      fail_at({p.source, it->second.second, "stype"}, "expected X or N, got '", it->second.first, "'");
    p.metadata["stype"] = s == "x" ? "X" : "N";
  } else if (header_text.find("pdfgetn") != std::string::npos) {
    p.metadata["stype"] = "N";
  } else if (header_text.find("pdfgetx") != std::string::npos || header_text.find("get_xpdf") != std::string::npos) {
    p.metadata["stype"] = "X";
  }
  for (const char* key : {"wavelength", "lambda"}) {
    if (const auto it = kv.find(key); it != kv.end() && !p.wavelength) {
      p.wavelength = header_number(p.source, it->second.second, "wavelength", it->second.first);
    }
  }
}

// ---- GSAS .fxye -------------------------------------------------------------

void read_fxye(std::istream& in, Pattern1D& p, const PatternReadOptions& o) {
  RowSink sink(p, o.max_rows);
  std::string line;
  int n = 0;
  int bank_line = 0;
  std::size_t nchan = 0;
  while (std::getline(in, line)) {
    ++n;
    const auto tokens = split(line);
    if (!bank_line) {
      if (n == 1 || tokens.empty() || lower(std::string(tokens[0])) != "bank") {
        if (n > 1 && !tokens.empty() && !is_comment(line) && lower(std::string(tokens[0])).rfind("instrument", 0) != 0 &&
            to_number(tokens[0]))
          fail_at({p.source, n, "BANK"}, "data before the BANK line");
        continue;
      }
      // BANK n nchan nrec CONS start step 0 0 FXYE
      bank_line = n;
      if (tokens.size() < 7)
        fail_at({p.source, n, "BANK"}, "expected 'BANK n nchan nrec CONS start step 0 0 FXYE'");
      const std::string bintyp(tokens[4]);
      if (bintyp != "CONS")
        fail_at({p.source, n, "BANK"}, "binning '", bintyp, "' is not supported (only CONS: constant 2θ steps)");
      const std::string type = tokens.size() >= 10 ? std::string(tokens[9]) : "STD";
      if (type != "FXYE")
        fail_at({p.source, n, "BANK"}, "data type '", type, "' is not supported (only FXYE: x y σ)");
      const auto c = to_number(tokens[2]);
      if (!c || !whole_number(*c, 1))
        fail_at({p.source, n, "nchan"}, "expected a positive channel count, got '", tokens[2], "'");
      if (*c > double(o.max_rows))
        fail_at({p.source, n, "nchan"}, *c, " channels is more than the reader's limit ", o.max_rows);
      nchan = std::size_t(*c);
      p.metadata["bank"] = std::string(tokens[1]);
      continue;
    }
    if (tokens.empty() || is_comment(line)) continue;
    if (lower(std::string(tokens[0])) == "bank") break;  // the first bank only
    const auto v = numbers(line, p.source, n);
    expect_columns(v, 3, 3, p.source, n, "FXYE has three: 2θ (centidegrees), y, σ");
    sink.add(v[0] / 100.0, v[1], &v[2], n);
  }
  if (!bank_line) fail_at({p.source, n, "BANK"}, "no BANK line");
  sink.finish(n);
  if (p.x.size() != nchan)
    fail_at({p.source, bank_line, "nchan"}, "the BANK line says ", nchan, " channels, the bank has ", p.x.size());
  set_axis(p, PatternAxis::two_theta, bank_line, o);
}

PatternFormat format_of(const std::filesystem::path& path) {
  const std::string ext = lower(path.extension().string());
  if (ext == ".xy" || ext == ".dat" || ext == ".txt") return PatternFormat::xy;
  if (ext == ".xye") return PatternFormat::xye;
  if (ext == ".chi") return PatternFormat::chi;
  if (ext == ".gr") return PatternFormat::gr;
  if (ext == ".fxye" || ext == ".gsa" || ext == ".gsas") return PatternFormat::fxye;
  fail_at({path.string(), 0, "format"}, "unknown extension '", ext,
          "'; patterns are read from .xy, .dat, .txt, .xye, .chi, .gr, .fxye (or give the format)");
}

}  // namespace

Pattern1D read_pattern(const std::filesystem::path& path, const PatternReadOptions& options) {
  Pattern1D p;
  p.source = path.string();
  const PatternFormat format = options.format == PatternFormat::automatic ? format_of(path) : options.format;
  if (options.wavelength && (!(*options.wavelength > 0) || !std::isfinite(*options.wavelength)))
    fail_option("wavelength", "must be > 0 Å, got ", *options.wavelength);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_at({p.source, 0, ""}, "cannot open file for reading");
  switch (format) {
    case PatternFormat::xy: p.format = "xy", read_xy(in, p, options, false); break;
    case PatternFormat::xye: p.format = "xye", read_xy(in, p, options, true); break;
    case PatternFormat::chi: p.format = "chi", read_chi(in, p, options); break;
    case PatternFormat::gr: p.format = "gr", read_gr(in, p, options); break;
    case PatternFormat::fxye: p.format = "fxye", read_fxye(in, p, options); break;
    case PatternFormat::automatic: break;
  }
  if (in.bad()) fail_at({p.source, 0, ""}, "read error");
  if (options.wavelength) p.wavelength = options.wavelength;
  if (p.wavelength && !(*p.wavelength > 0))
    fail_at({p.source, 0, "wavelength"}, "must be > 0 Å, got ", *p.wavelength);
  return p;
}

}  // namespace nanoscatter
