// ADDA text shape files (ADDA manual §C.3, make_particle.c InitDipFile):
//   # comment lines
//   [Nmat=<n>]                 present only in the multi-domain format
//   x y z [dom]                integer grid positions (dom counts from 1)
// Blank lines are skipped. Positions are shifted so that the minima are 0 and
// the box is (max − min + 1) along each axis.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/dda.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

long parse_int(const std::string& token, const Where& where) {
  const auto v = whole_number(token, std::numeric_limits<long>::min(), std::numeric_limits<long>::max());
  if (!v) fail_at(where, "not an integer '", token, "'");
  return long(*v);
}

}  // namespace

DdaGeometry read_adda_shape_file(const std::filesystem::path& path) {
  const std::string fname = path.string();
  std::ifstream in(path);
  if (!in) fail_at({fname, 0, ""}, "cannot open the shape file");
  struct Raw {
    long x, y, z;
    int dom;
    int line;
  };
  std::vector<Raw> raw;
  int nmat_declared = 0;
  bool multi = false, data_started = false;
  std::string line;
  int lineno = 0;
  static const char* axis[] = {"x", "y", "z", "domain"};
  while (std::getline(in, line)) {
    ++lineno;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (t.rfind("Nmat=", 0) == 0) {
      if (data_started || multi) fail_at({fname, lineno, "Nmat"}, "'Nmat=' must come once, before the dipoles");
      const long n = parse_int(trim(t.substr(5)), {fname, lineno, "Nmat"});
      if (n < 1 || n > 255) fail_at({fname, lineno, "Nmat"}, "must lie in 1..255, got ", n);
      nmat_declared = static_cast<int>(n);
      multi = true;
      continue;
    }
    data_started = true;
    std::istringstream ls(t);
    std::vector<std::string> tok;
    for (std::string s; ls >> s;) tok.push_back(s);
    const std::size_t want = multi ? 4 : 3;
    if (tok.size() != want)
      fail_at({fname, lineno, tok.size() < want ? axis[tok.size()] : "line"}, "expected ", want,
              multi ? " integers 'x y z domain'" : " integers 'x y z'", ", found ", tok.size(),
              " values");
    long v[4] = {0, 0, 0, 1};
    for (std::size_t c = 0; c < want; ++c) v[c] = parse_int(tok[c], {fname, lineno, axis[c]});
    for (int c = 0; c < 3; ++c)
      if (v[c] < INT_MIN / 2 || v[c] > INT_MAX / 2) fail_at({fname, lineno, axis[c]}, "out of range");
    if (multi && (v[3] < 1 || v[3] > 255))
      fail_at({fname, lineno, "domain"}, "domain number must lie in 1..255, got ", v[3]);
    raw.push_back({v[0], v[1], v[2], static_cast<int>(v[3]), lineno});
  }
  if (raw.empty()) fail_at({fname, 0, ""}, "no dipole positions found");
  long mn[3] = {LONG_MAX, LONG_MAX, LONG_MAX}, mx[3] = {LONG_MIN, LONG_MIN, LONG_MIN};
  int max_dom = 1;
  for (const Raw& r : raw) {
    const long c[3] = {r.x, r.y, r.z};
    for (int a = 0; a < 3; ++a) {
      mn[a] = std::min(mn[a], c[a]);
      mx[a] = std::max(mx[a], c[a]);
    }
    max_dom = std::max(max_dom, r.dom);
  }
  DdaGeometry g;
  for (int a = 0; a < 3; ++a) {
    const long extent = mx[a] - mn[a] + 1;
    if (extent > 65535) fail_at({fname, 0, axis[a]}, "the dipoles span ", extent, " > 65535 grid points");
    g.box[a] = static_cast<int>(extent);
  }
  // ADDA ignores a declared Nmat that differs from the largest domain number.
  (void)nmat_declared;
  g.materials = max_dom;
  g.position.reserve(raw.size());
  g.material.reserve(raw.size());
  std::unordered_set<std::uint64_t> seen;
  seen.reserve(raw.size() * 2);
  for (const Raw& r : raw) {
    const std::uint64_t key = (static_cast<std::uint64_t>(r.x - mn[0]) << 32) |
                              (static_cast<std::uint64_t>(r.y - mn[1]) << 16) |
                              static_cast<std::uint64_t>(r.z - mn[2]);
    if (!seen.insert(key).second)
      fail_at({fname, r.line, "dipole"}, "duplicate dipole at ", r.x, " ", r.y, " ", r.z);
    g.position.push_back({static_cast<std::uint16_t>(r.x - mn[0]), static_cast<std::uint16_t>(r.y - mn[1]),
                          static_cast<std::uint16_t>(r.z - mn[2])});
    g.material.push_back(static_cast<std::uint8_t>(r.dom - 1));
  }
  g.description = "specified by file " + fname + "; size along x-axis:";
  return g;
}

void write_adda_shape_file(const std::filesystem::path& path, const DdaGeometry& g,
                           const std::string& shape_name, const RunRecord& record) {
  AtomicOutput out(path);
  FILE* f = std::fopen(out.temp_path().c_str(), "w");
  if (!f) fail_at({path.string(), 0, "save_geom", true}, "cannot write the file");
  for (const std::string& line : record.header_lines("generated by nanoscatter (ADDA text format)"))
    std::fprintf(f, "#%s\n", line.c_str());
  std::fprintf(f, "#shape: '%s'\n#box size: %dx%dx%d\n", shape_name.c_str(), g.box[0], g.box[1], g.box[2]);
  const bool multi = g.materials > 1;
  if (multi) std::fprintf(f, "Nmat=%d\n", g.materials);
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto& p = g.position[i];
    if (multi)
      std::fprintf(f, "%d %d %d %d\n", p[0], p[1], p[2], g.material[i] + 1);
    else
      std::fprintf(f, "%d %d %d\n", p[0], p[1], p[2]);
  }
  const bool ok = std::ferror(f) == 0;
  if (std::fclose(f) != 0 || !ok) fail_at({path.string(), 0, "save_geom", true}, "write failed");
  out.commit();
}

}  // namespace nanoscatter
