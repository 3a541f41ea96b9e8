// Our OBJ reader (src/io/mesh_obj.cpp, issue 25): a unit cube written in
// every corner form, with relative indices, quads, comments and ignored
// statements reads as the same mesh as its plain triangle version; each
// refusal is one line naming the file, the line and the statement.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "mesh_file_test.hpp"
#include "test_util.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;

namespace {

const char* const kCubeVertices =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
    "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n";

// The six faces, counter-clockwise seen from outside (1-based).
const int kQuads[6][4] = {{1, 4, 3, 2}, {5, 6, 7, 8}, {1, 2, 6, 5}, {3, 4, 8, 7}, {1, 5, 8, 4}, {2, 3, 7, 6}};

// Each quad as the fan (a b c), (a c d), every corner written by `corner`.
template <class Corner>
std::string triangle_faces(Corner corner) {
  std::string out;
  for (const auto& q : kQuads) {
    out += "f " + corner(q[0]) + " " + corner(q[1]) + " " + corner(q[2]) + "\n";
    out += "f " + corner(q[0]) + " " + corner(q[2]) + " " + corner(q[3]) + "\n";
  }
  return out;
}

std::string plain(int i) { return std::to_string(i); }

class MeshObj : public test::MeshFileTest {
 protected:
  MeshObj() : MeshFileTest("mesh_obj", ".obj") {}
};

void expect_same(const TriangleMesh& a, const TriangleMesh& b) {
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  for (std::size_t i = 0; i < a.vertices.size(); ++i) {
    EXPECT_EQ(a.vertices[i].x, b.vertices[i].x) << i;
    EXPECT_EQ(a.vertices[i].y, b.vertices[i].y) << i;
    EXPECT_EQ(a.vertices[i].z, b.vertices[i].z) << i;
  }
  EXPECT_EQ(a.triangles, b.triangles);
}

}  // namespace

TEST_F(MeshObj, PlainTrianglesAreAValidCube) {
  const TriangleMesh m = read(std::string(kCubeVertices) + triangle_faces(plain));
  EXPECT_EQ(m.vertices.size(), 8u);
  EXPECT_EQ(m.triangles.size(), 12u);
  EXPECT_NO_THROW(validate_mesh(m));
  EXPECT_NEAR(mesh_volume(m), 1.0, 1e-15);
  EXPECT_EQ(m.vertices[6].x, 1.0);  // file order
  EXPECT_EQ(m.triangles[0], (std::array<int, 3>{0, 3, 2}));
}

TEST_F(MeshObj, EveryCornerFormGivesTheSameMesh) {
  const TriangleMesh ref = read(std::string(kCubeVertices) + triangle_faces(plain));
  const std::string vt = "vt 0 0\nvt 1 0\nvt 1 1 0\nvt 0.5\n";
  const std::string vn = "vn 0 0 -1\nvn 0 0 1\nvn 0 -1 0\n";
  expect_same(read(kCubeVertices + vt + triangle_faces([](int i) { return plain(i) + "/" + plain(1 + i % 4); })),
              ref);
  expect_same(read(kCubeVertices + vn + triangle_faces([](int i) { return plain(i) + "//" + plain(1 + i % 3); })),
              ref);
  expect_same(read(kCubeVertices + vt + vn + triangle_faces([](int i) {
                     return plain(i) + "/" + plain(-1 - i % 4) + "/" + plain(-1 - i % 3);
                   })),
              ref);
}

TEST_F(MeshObj, RelativeIndicesGiveTheSameMesh) {
  const TriangleMesh ref = read(std::string(kCubeVertices) + triangle_faces(plain));
  // After all eight vertices, -8 is vertex 1 and -1 vertex 8.
  expect_same(read(kCubeVertices + triangle_faces([](int i) { return plain(i - 9); })), ref);
  // Mixed with absolute indices and with vertices defined between faces:
  // the bottom face right after its four vertices.
  const std::string faces = triangle_faces(plain);
  const std::string other_faces = faces.substr(faces.find('\n', faces.find('\n') + 1) + 1);
  expect_same(read("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf -4 -1 -2\nf 1 -2 -3\n"
                   "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n" +
                   other_faces),
              ref);
}

TEST_F(MeshObj, QuadsAreFans) {
  const TriangleMesh ref = read(std::string(kCubeVertices) + triangle_faces(plain));
  std::string quads = kCubeVertices;
  for (const auto& q : kQuads)
    quads += "f " + plain(q[0]) + " " + plain(q[1]) + " " + plain(q[2]) + " " + plain(q[3]) + "\n";
  expect_same(read(quads), ref);
}

TEST_F(MeshObj, ConvexPolygonsAreFans) {
  // A hexagonal prism: two hexagons (fans of 4 triangles) and six quads.
  std::string text;
  for (int z = 0; z < 2; ++z)
    for (int k = 0; k < 6; ++k) {
      const double a = k * std::numbers::pi / 3;
      text += "v " + std::to_string(std::cos(a)) + " " + std::to_string(std::sin(a)) + " " + plain(z) + "\n";
    }
  text += "f 6 5 4 3 2 1\nf 7 8 9 10 11 12\n";
  for (int k = 1; k <= 6; ++k) {
    const int n = k % 6 + 1;
    text += "f " + plain(k) + " " + plain(n) + " " + plain(n + 6) + " " + plain(k + 6) + "\n";
  }
  const TriangleMesh m = read(text);
  EXPECT_EQ(m.triangles.size(), 2 * 4 + 6 * 2u);
  EXPECT_NO_THROW(validate_mesh(m));
  EXPECT_EQ(m.triangles[1], (std::array<int, 3>{5, 3, 2}));
}

TEST_F(MeshObj, CommentsAndIgnoredStatementsGiveTheSameMesh) {
  const TriangleMesh ref = read(std::string(kCubeVertices) + triangle_faces(plain));
  const std::string text = "# exported by hand\r\nmtllib does_not_exist.mtl\r\no cube\r\n\r\n   \t\r\n" +
                           std::string(kCubeVertices) + "g side one\ns 1\nusemtl gold  # inline comment\ns off\n" +
                           "vt 0.1 0.2\nvn 0 0 1\n" + triangle_faces([](int i) { return plain(i) + "  "; }) +
                           "# the end";
  expect_same(read(text), ref);
}

TEST_F(MeshObj, UnusedVerticesAreDroppedAndRepeatedOnesWelded) {
  const TriangleMesh ref = read(std::string(kCubeVertices) + triangle_faces(plain));
  // An unused vertex before the cube would move place_mesh's bounding box.
  expect_same(read("v 5 5 5\n" + std::string(kCubeVertices) + triangle_faces([](int i) { return plain(i + 1); })),
              ref);
  // Vertex 9 repeats vertex 1 (an exporter's seam): welded into one.
  expect_same(read(std::string(kCubeVertices) + "v 0 0 0\n" + triangle_faces([](int i) {
                     return plain(i == 1 ? 9 : i);
                   }).replace(2, 1, "1")),
              ref);
}

TEST_F(MeshObj, WeightsAndExponentsAreNumbers) {
  const TriangleMesh m = read("v 0 0 0 1\nv 1e0 0 0 1.0\nv 0 +1 0\nf 1 2 3\n");
  EXPECT_EQ(m.vertices[2].y, 1.0);
}

TEST_F(MeshObj, IndexPastTheVerticesNamesTheLine) {
  const std::string e = error(std::string(kCubeVertices) + "# faces\n\nf 1 2 9\n", 11, "f");
  EXPECT_NE(e.find("vertex index 9 is past the 8 vertices defined so far"), std::string::npos) << e;
  // Forward references count as past: faces use what is defined above them.
  error("v 0 0 0\nf 1 2 3\nv 1 0 0\nv 0 1 0\n", 2, "f");
}

TEST_F(MeshObj, IndexErrorsNameTheLine) {
  EXPECT_NE(error(std::string(kCubeVertices) + "f 1 0 2\n", 9, "f").find("index 0"), std::string::npos);
  EXPECT_NE(error(std::string(kCubeVertices) + "f -1 -2 -9\n", 9, "f").find("-9 reaches before the first"),
            std::string::npos);
  EXPECT_NE(error(std::string(kCubeVertices) + "f 1 2 x\n", 9, "f").find("'x' is not an integer"),
            std::string::npos);
  EXPECT_NE(error(std::string(kCubeVertices) + "f 1 2 99999999999999999999999\n", 9, "f").find("not an integer"),
            std::string::npos);
  EXPECT_NE(error(std::string(kCubeVertices) + "vt 0 0\nf 1/1 2/1 3/2\n", 10, "f")
                .find("texture coordinate index 2 is past the 1 texture coordinates"),
            std::string::npos);
  EXPECT_NE(error(std::string(kCubeVertices) + "f 1//1 2//1 3//1\n", 9, "f").find("normal index 1 is past the 0"),
            std::string::npos);
}

TEST_F(MeshObj, AssimpLeakInputIsRefusedWithItsLine) {
  // The fuzz finding on main's Assimp path, minimised: Assimp refused it
  // ("vertex index out of range", no line) and leaked the mesh it had built.
  const std::string e = error("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 2 3 4\ng bottom\n"
                              "f -7/-1/-2 -6/-2/-2 -2/-3/-2 -3/-1/-2",
                              7, "f");
  EXPECT_NE(e.find("relative vertex index -7 reaches before the first of the 4 vertices defined so far"),
            std::string::npos)
      << e;
}

TEST_F(MeshObj, MalformedFacesNameTheLine) {
  const std::string v = kCubeVertices;
  EXPECT_NE(error(v + "f 1 2\n", 9, "f").find("at least 3 corners, got 2"), std::string::npos);
  for (const char* corner : {"3/", "3//", "/3", "3/1/1/1", "3/1/"})
    EXPECT_NE(error(v + "vt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 " + std::string(corner) + "\n", 11, "f").find(corner),
              std::string::npos)
        << corner;
  EXPECT_NE(error(v + "vt 0 0\nf 1/1 2/1 3\n", 10, "f").find("one form per face"), std::string::npos);
}

TEST_F(MeshObj, NumbersMustBeFinite) {
  EXPECT_NE(error("v 0 nan 0\n", 1, "v").find("not a finite number 'nan'"), std::string::npos);
  EXPECT_NE(error("v 0 0 0\nv 0 0 -inf\n", 2, "v").find("not a finite number"), std::string::npos);
  EXPECT_NE(error("v 0 0 1e999\n", 1, "v").find("1e999"), std::string::npos);
  EXPECT_NE(error("v 0 0,5 0\n", 1, "v").find("not a number '0,5'"), std::string::npos);
  EXPECT_NE(error("v 0 0 0\nv 1 2 3 1 0 0\n", 2, "v").find("x y z [w]"), std::string::npos);
  EXPECT_NE(error("v 0 0 0 nan\n", 1, "v").find("not a finite number"), std::string::npos);
  EXPECT_NE(error("vt 0 inf\n", 1, "vt").find("not a finite number"), std::string::npos);
  EXPECT_NE(error("vn 0 0\n", 1, "vn").find("i j k"), std::string::npos);
}

TEST_F(MeshObj, LinesPointsAndUnknownStatementsAreRefused) {
  const std::string v = kCubeVertices;
  EXPECT_NE(error(v + "l 1 2\n", 9, "l").find("bound no volume"), std::string::npos);
  EXPECT_NE(error(v + "p 1\n", 9, "p").find("bound no volume"), std::string::npos);
  EXPECT_NE(error(v + "curv 0 1 1 2\n", 9, "curv").find("unknown or unsupported statement"), std::string::npos);
  EXPECT_NE(error(v + "F 1 2 3\n", 9, "F").find("unknown"), std::string::npos);
  EXPECT_NE(error(v + "g a \\\n b\n", 9, "g").find("continued lines"), std::string::npos);
}

TEST_F(MeshObj, NonPlanarOrConcavePolygonsAreRefused) {
  const std::string v = kCubeVertices;
  // A quad over four corners of the cube that are not in one plane.
  EXPECT_NE(error(v + "f 1 2 3 8\n", 9, "f").find("not planar"), std::string::npos);
  // A planar arrow head (concave at corner 3).
  EXPECT_NE(error("v 0 0 0\nv 2 0 0\nv 1 0.5 0\nv 1 2 0\nf 1 2 3 4\n", 5, "f").find("not convex at corner 3"),
            std::string::npos);
  // A bow tie (crosses itself) and a pentagram (turns one way, twice round).
  error("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3 4\n", 5, "f");
  std::string star;
  for (int k = 0; k < 5; ++k) {
    const double a = 2 * k * 2 * std::numbers::pi / 5;
    star += "v " + std::to_string(std::cos(a)) + " " + std::to_string(std::sin(a)) + " 0\n";
  }
  EXPECT_NE(error(star + "f 1 2 3 4 5\n", 6, "f").find("not convex"), std::string::npos);
  // Four corners on one line enclose nothing.
  EXPECT_NE(error("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nf 1 2 3 4\n", 5, "f").find("enclose no area"),
            std::string::npos);
  // Rounding of printed numbers (6 digits) is not a bend or a dent.
  EXPECT_NO_THROW(read("v 0 0 0\nv 1 0 0.000001\nv 1 1 0\nv 0.5 0.999999 0\nv 0 1 0\nf 1 2 3 4 5\n"));
}

TEST_F(MeshObj, NoFacesIsAnError) {
  EXPECT_NE(error(kCubeVertices, 0, "file").find("no triangles"), std::string::npos);
  error("", 0, "file");
}

TEST_F(MeshObj, DegenerateTrianglesAreKeptForValidation) {
  // A zero-area triangle is read as written; validate_mesh reports it.
  const TriangleMesh m = read("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 1 1 2\n");
  EXPECT_EQ(m.triangles.size(), 2u);
  EXPECT_THROW(validate_mesh(m), Error);
}
