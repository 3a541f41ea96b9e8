// Format dispatch on the file extension.
#include <filesystem>

#include "io/structure_text.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/structure_io.hpp"

namespace nanoscatter {
namespace {

std::string extension_of(const std::string& path) {
  return io::to_lower(std::filesystem::path(path).extension().string());
}

}  // namespace

Structure read_structure(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext == ".xyz" || ext == ".extxyz") return read_xyz(path);
  if (ext == ".pdb" || ext == ".ent") return read_pdb(path);
  if (ext == ".cif") return read_cif(path);
  fail_at({path, 0, ""}, "unknown structure format '", ext, "' (expected .xyz, .extxyz, .pdb, .ent or .cif)");
}

void write_structure(const std::string& path, const Structure& structure, const std::string& comment,
                     const std::string& field) {
  const std::string ext = extension_of(path);
  if (ext == ".xyz" || ext == ".extxyz") return write_xyz(path, structure, comment);
  if (ext == ".pdb") return write_pdb(path, structure, comment);
  fail_at({path, 0, field}, "unknown structure output format '", ext, "' (expected .xyz, .extxyz or .pdb)");
}

}  // namespace nanoscatter
