// Our own strict Wavefront OBJ reader for particle meshes (read_mesh in
// gisaxs_mesh.hpp dispatches .obj files here). Assimp's OBJ importer leaked
// on files it refused, ran at ~20 files/s under the sanitizers and named no
// line in its messages (issue 25, bench/results/2026-11-26-fuzz.md).
#pragma once
#include <string>

#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::io {

// Reads the OBJ file at `path` (named `path` in errors): the vertices that
// faces use, in the order of their `v` statements, welded by bit-identical
// coordinates; the faces in file order, polygons split into fans. Throws
// Error "path:line: statement: reason" on the first problem; does not
// validate the surface (validate_mesh does).
gisaxs::TriangleMesh read_obj_mesh(const std::string& path);

}  // namespace nanoscatter::io
