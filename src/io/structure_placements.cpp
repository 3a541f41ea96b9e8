// Placements file for ensembles: "x y z [alpha beta gamma]" per line.
#include "io/structure_text.hpp"
#include "nanoscatter/builder.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

std::vector<Placement> read_placements(const std::string& path) {
  const auto lines = io::read_lines(path);
  std::vector<Placement> placements;
  static const char* fields[6] = {"x", "y", "z", "alpha", "beta", "gamma"};
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const int n = static_cast<int>(k) + 1;
    std::string_view text = lines[k];
    if (const auto hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    const auto tokens = io::split_whitespace(text);
    if (tokens.empty()) continue;
    if (tokens.size() != 3 && tokens.size() != 6)
      fail_at({path, n, "placement"}, "expected 'x y z' or 'x y z alpha beta gamma', got ", tokens.size(),
              " numbers");
    double v[6] = {0, 0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < tokens.size(); ++i) v[i] = io::parse_finite(tokens[i], {path, n, fields[i]});
    placements.push_back(Placement{Vec3{v[0], v[1], v[2]}, rotation_zyz_degrees(v[3], v[4], v[5])});
  }
  if (placements.empty()) fail_at({path, 0, "placement"}, "no placements in the file");
  return placements;
}

}  // namespace nanoscatter
