// Particle meshes by extension: OBJ and STL through our own strict readers
// (io/mesh_obj.cpp, io/mesh_stl.cpp), whose errors name the line and which
// hand what the file holds to validate_mesh() unchanged: no vertex joining
// beyond bit-identical corners, no degenerate removal, no normal generation
// (a zero-area triangle must be reported, not silently dropped). Assimp did
// STL until its importer leaked on refused files (issue 25).
#include <cctype>

#include "io/mesh_obj.hpp"
#include "io/mesh_stl.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::gisaxs {

TriangleMesh read_mesh(const std::filesystem::path& path) {
  const std::string name = path.string();
  if (!std::filesystem::is_regular_file(path)) fail_at({name, 0, "file"}, "mesh file does not exist");
  const auto ext = path.extension().string();
  std::string lower;
  for (char c : ext) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower != ".stl" && lower != ".obj")
    fail_at({name, 0, "file"}, "unknown mesh format '", ext, "' (.stl, .obj)");
  if (lower == ".obj") return io::read_obj_mesh(name);
  return io::read_stl_mesh(name);
}

}  // namespace nanoscatter::gisaxs
