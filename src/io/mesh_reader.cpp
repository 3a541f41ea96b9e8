// Particle meshes: OBJ through our own strict reader (io/mesh_obj.cpp: its
// errors name the line, and Assimp's OBJ importer leaked on refused files
// and ran at ~20 files/s under the fuzzers), STL (ASCII, binary) through
// assimp (Debian's libassimp-dev). assimp is asked for triangles only and
// for nothing else: no vertex joining, no degenerate removal, no normal
// generation, so that what the file holds reaches validate_mesh() unchanged
// (a zero-area triangle must be reported, not silently dropped). Vertices
// are welded here by exact coordinates: STL stores every triangle's corners
// separately, and shared corners are written with identical numbers.
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cstring>
#include <unordered_map>

#include "io/mesh_obj.hpp"
#include "io/mesh_weld.hpp"
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
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(name, aiProcess_Triangulate);
  if (!scene) fail_at({name, 0, "file"}, "cannot read the mesh: ", importer.GetErrorString());
  TriangleMesh mesh;
  mesh.source = name;
  io::VertexWelder weld(mesh.vertices);
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* am = scene->mMeshes[m];
    std::vector<int> welded(am->mNumVertices);
    for (unsigned v = 0; v < am->mNumVertices; ++v) {
      const aiVector3D& p = am->mVertices[v];
      welded[v] = weld.index(p.x, p.y, p.z);
    }
    for (unsigned f = 0; f < am->mNumFaces; ++f) {
      const aiFace& face = am->mFaces[f];
      const Where at{name, 0, "triangle " + std::to_string(mesh.triangles.size())};
      if (face.mNumIndices != 3) fail_at(at, "a face with ", face.mNumIndices, " corner(s) is not a triangle");
      // assimp's checks are not ours to rely on (issue 25): an index past
      // its vertices would read past `welded`.
      for (unsigned k = 0; k < 3; ++k)
        if (face.mIndices[k] >= am->mNumVertices)
          fail_at(at, "corner ", k + 1, " names vertex ", face.mIndices[k], " of ", am->mNumVertices,
                  " (the importer returned a bad index)");
      mesh.triangles.push_back({welded[face.mIndices[0]], welded[face.mIndices[1]], welded[face.mIndices[2]]});
    }
  }
  if (mesh.triangles.empty()) fail_at({name, 0, "file"}, "the mesh has no triangles");
  return mesh;
}

}  // namespace nanoscatter::gisaxs
