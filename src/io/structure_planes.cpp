// Planes file for convex polyhedra: "nx ny nz d" per line (n·r ≤ d, Å).
#include "io/structure_text.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

std::vector<Plane> read_planes(const std::string& path) {
  const auto lines = io::read_lines(path);
  std::vector<Plane> planes;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const int n = static_cast<int>(k) + 1;
    std::string_view text = lines[k];
    if (const auto hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    const auto tokens = io::split_whitespace(text);
    if (tokens.empty()) continue;
    if (tokens.size() != 4)
      fail_at({path, n, "plane"}, "expected 4 numbers 'nx ny nz d', got ", tokens.size());
    Plane p;
    p.normal.x = io::parse_finite(tokens[0], {path, n, "nx"});
    p.normal.y = io::parse_finite(tokens[1], {path, n, "ny"});
    p.normal.z = io::parse_finite(tokens[2], {path, n, "nz"});
    p.distance = io::parse_finite(tokens[3], {path, n, "d"});
    if (!(norm(p.normal) > 0)) fail_at({path, n, "nx"}, "the normal is zero");
    if (!(p.distance > 0)) fail_at({path, n, "d"}, "must be positive (the centre lies inside), got ", p.distance);
    planes.push_back(p);
  }
  if (planes.empty()) fail_at({path, 0, "plane"}, "no planes in the file");
  return planes;
}

}  // namespace nanoscatter
