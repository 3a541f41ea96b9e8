// Our own strict STL reader for particle meshes (read_mesh in
// gisaxs_mesh.hpp dispatches .stl files here). Assimp's STL importer leaked
// the mesh and node it had built on ASCII files it refused (CI's fuzzer,
// issue 25), and its messages named no line; with the OBJ reader already
// ours, assimp was left doing only this.
#pragma once
#include <string>

#include "nanoscatter/gisaxs_mesh.hpp"

namespace nanoscatter::io {

// Reads the STL file at `path` (named `path` in errors), binary or ASCII: a
// file is binary when its size is exactly 84 + 50 N bytes for the N its
// bytes 80-83 declare (binary headers may begin with "solid" too), else
// ASCII. The facets in file order, vertices welded by bit-identical
// coordinates (binary: float32 widened exactly; ASCII: the file's digits as
// double); facet normals are read and checked for form but not used, since
// the corners' order fixes the orientation and many exporters write 0 0 0.
// Throws Error "path:line: keyword: reason" (ASCII) or "path: facet N:
// reason" (binary) on the first problem; does not validate the surface
// (validate_mesh does).
gisaxs::TriangleMesh read_stl_mesh(const std::string& path);

}  // namespace nanoscatter::io
