// Strict STL reader (mesh_stl.hpp). Binary: an 80-byte header, a uint32
// facet count and 50 bytes per facet (normal, three corners as
// little-endian float32, a 16-bit attribute that is ignored). ASCII: one or
// more `solid NAME … endsolid NAME`, each holding `facet normal nx ny nz /
// outer loop / vertex x y z (three times) / endloop / endfacet`; keywords in
// any case (some exporters write them upper-case), tokens across lines as
// the grammar allows. Anything else is refused with its line.
#include "io/mesh_stl.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

#include "io/mesh_weld.hpp"
#include "io/structure_text.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter::io {

namespace {

using gisaxs::TriangleMesh;

// Binary layout (the format's, not ours to choose).
constexpr std::size_t kHeaderBytes = 80;
constexpr std::size_t kCountBytes = 4;
constexpr std::size_t kFacetBytes = 50;  // 12 float32 + uint16 attribute

std::uint32_t little_u32(const unsigned char* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

float little_float(const unsigned char* p) { return std::bit_cast<float>(little_u32(p)); }

std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_at({path, 0, "file"}, "cannot open file");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail_at({path, 0, "file"}, "cannot read file");
  return bytes;
}

// The facet count a binary file's header declares, when its size is exactly
// what that count needs.
std::optional<std::uint32_t> binary_facets(const std::vector<unsigned char>& bytes) {
  if (bytes.size() < kHeaderBytes + kCountBytes) return std::nullopt;
  const std::uint32_t n = little_u32(bytes.data() + kHeaderBytes);
  if (bytes.size() != kHeaderBytes + kCountBytes + kFacetBytes * std::size_t(n)) return std::nullopt;
  return n;
}

TriangleMesh read_binary(const std::string& path, const std::vector<unsigned char>& bytes, std::uint32_t facets) {
  if (facets == 0) fail_at({path, 0, "file"}, "the mesh has no triangles (the binary header declares 0 facets)");
  if (facets > std::uint32_t(INT_MAX / 3))
    fail_at({path, 0, "file"}, "more facets (", facets, ") than a mesh can index");
  TriangleMesh mesh;
  mesh.source = path;
  mesh.triangles.reserve(facets);
  VertexWelder weld(mesh.vertices);
  const char* const axis = "xyz";
  for (std::uint32_t f = 0; f < facets; ++f) {
    const unsigned char* corner = bytes.data() + kHeaderBytes + kCountBytes + kFacetBytes * std::size_t(f) + 12;
    std::array<int, 3> triangle{};
    for (int c = 0; c < 3; ++c, corner += 12) {
      double p[3];
      for (int k = 0; k < 3; ++k) {
        p[k] = little_float(corner + 4 * k);
        if (!std::isfinite(p[k]))
          fail_at({path, 0, "facet " + std::to_string(f + 1)}, "corner ", c + 1, ": ", axis[k], " = ", p[k],
                  " is not a finite number");
      }
      triangle[c] = weld.index(p[0], p[1], p[2]);
    }
    mesh.triangles.push_back(triangle);
  }
  return mesh;
}

// The ASCII file as a stream of whitespace-separated tokens with their lines.
class Tokens {
 public:
  Tokens(std::string path, std::vector<std::string> lines) : path_(std::move(path)), lines_(std::move(lines)) {
    advance();
  }

  bool done() const { return line_ >= lines_.size(); }
  // The line of the next token (of the last line at the end of the file).
  int line() const { return clamp_line(done() ? lines_.size() : line_ + 1); }
  // The line of the token taken last.
  int last_line() const { return clamp_line(last_ + 1); }
  std::string_view peek() const { return done() ? std::string_view{} : tokens_[next_]; }

  std::string_view take(const char* what) {
    if (done()) fail_at({path_, line(), what}, "the file ends where '", what, "' was expected");
    last_ = line_;
    const std::string_view t = tokens_[next_++];
    if (next_ == tokens_.size()) ++line_, advance();
    return t;
  }

  // What follows the last token on its line (a solid's name), as one string.
  std::string rest_of_line() {
    std::string text;
    while (!done() && line_ == last_) {
      if (!text.empty()) text += ' ';
      text += take("name");
    }
    return text;
  }

  // The keyword `word` (any case) next, or Error naming what came instead.
  void expect(const char* word) {
    const int at = line();
    const std::string_view t = take(word);
    if (!iequals(t, word)) fail_at({path_, at, word}, "expected '", word, "', found '", t, "'");
  }

  double number(const char* what) {
    const int at = line();
    return parse_finite(take(what), {path_, at, what});
  }

 private:
  static int clamp_line(std::size_t n) { return int(std::min<std::size_t>(n, INT_MAX)); }

  // Moves to the next line that has tokens, from line_ on.
  void advance() {
    for (; line_ < lines_.size(); ++line_) {
      tokens_ = split_whitespace(lines_[line_]);
      next_ = 0;
      if (!tokens_.empty()) return;
    }
  }

  std::string path_;
  std::vector<std::string> lines_;
  std::size_t line_ = 0;  // of the next token
  std::size_t last_ = 0;  // of the token taken last
  std::vector<std::string_view> tokens_;
  std::size_t next_ = 0;
};

// `bytes`: the file's, already read (and checked to hold no NUL).
TriangleMesh read_ascii(const std::string& path, const std::vector<unsigned char>& bytes) {
  Tokens tokens(path, split_lines({reinterpret_cast<const char*>(bytes.data()), bytes.size()}));
  TriangleMesh mesh;
  mesh.source = path;
  VertexWelder weld(mesh.vertices);
  while (!tokens.done()) {
    tokens.expect("solid");
    const std::string name = tokens.rest_of_line();
    const int opened = tokens.last_line();
    for (;;) {
      if (tokens.done())
        fail_at({path, tokens.line(), "endsolid"}, "the file ends inside the solid '", name, "' opened on line ",
                opened, " (no endsolid)");
      const int at = tokens.line();
      const std::string_view keyword = tokens.peek();
      if (iequals(keyword, "endsolid")) {
        tokens.take("endsolid");
        tokens.rest_of_line();  // its name need not repeat the solid's
        break;
      }
      if (!iequals(keyword, "facet"))
        fail_at({path, at, std::string(keyword)}, "expected 'facet' or 'endsolid', found '", keyword, "'");
      tokens.take("facet");
      tokens.expect("normal");
      for (int k = 0; k < 3; ++k) tokens.number("normal");
      tokens.expect("outer");
      tokens.expect("loop");
      std::array<int, 3> triangle{};
      for (int c = 0; c < 3; ++c) {
        const int vertex_line = tokens.line();
        const std::string_view t = tokens.take("vertex");
        if (iequals(t, "endloop"))
          fail_at({path, vertex_line, "endloop"}, "a facet has three vertices, found ", c);
        if (!iequals(t, "vertex")) fail_at({path, vertex_line, "vertex"}, "expected 'vertex', found '", t, "'");
        const double x = tokens.number("vertex"), y = tokens.number("vertex"), z = tokens.number("vertex");
        triangle[c] = weld.index(x, y, z);
      }
      const int end_line = tokens.line();
      const std::string_view t = tokens.take("endloop");
      if (iequals(t, "vertex")) fail_at({path, end_line, "vertex"}, "a facet has three vertices, found more");
      if (!iequals(t, "endloop")) fail_at({path, end_line, "endloop"}, "expected 'endloop', found '", t, "'");
      tokens.expect("endfacet");
      if (mesh.triangles.size() >= std::size_t(INT_MAX / 3))
        fail_at({path, at, "facet"}, "more facets than a mesh can index");
      mesh.triangles.push_back(triangle);
    }
  }
  if (mesh.triangles.empty()) fail_at({path, 0, "file"}, "the mesh has no triangles (no facet)");
  return mesh;
}

}  // namespace

TriangleMesh read_stl_mesh(const std::string& path) {
  const std::vector<unsigned char> bytes = read_bytes(path);
  if (const auto facets = binary_facets(bytes)) return read_binary(path, bytes, *facets);
  // Not binary by its size: ASCII, which must start with "solid" and hold
  // text only (a NUL byte means a binary file of the wrong length).
  std::size_t start = 0;
  while (start < bytes.size() && std::isspace(bytes[start])) ++start;
  const bool solid = bytes.size() - start >= 5 && iequals(std::string_view(
                                                              reinterpret_cast<const char*>(bytes.data()) + start, 5),
                                                          "solid");
  const bool text = std::find(bytes.begin(), bytes.end(), 0) == bytes.end();
  if (!solid || !text) {
    std::string binary = "shorter than a binary STL's 84-byte header";
    if (bytes.size() >= kHeaderBytes + kCountBytes) {
      const std::uint32_t n = little_u32(bytes.data() + kHeaderBytes);
      binary = "as binary STL its header declares " + std::to_string(n) + " facets, which take " +
               std::to_string(kHeaderBytes + kCountBytes + kFacetBytes * std::size_t(n)) + " bytes, but the file has " +
               std::to_string(bytes.size());
    }
    fail_at({path, 0, "file"}, "not an STL file: ", solid ? "it starts with 'solid' but holds binary bytes"
                                                           : "it does not start with 'solid' (ASCII STL)",
            "; ", binary);
  }
  return read_ascii(path, bytes);
}

}  // namespace nanoscatter::io
