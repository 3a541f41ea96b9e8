// DdaOutput: where a DDA run's files go, checked before any work, and
// write_dda, the one writer of them for the CLI and Python.
#include <filesystem>

#include "dda/adda_files.hpp"
#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/dda_output.hpp"
#include "nanoscatter/error.hpp"

namespace nanoscatter {

void DdaOutput::validate() const {
  if (output_dir.empty()) fail_option("output", "required (the folder for the files)");
  // Checked now, so that a folder that cannot be written fails before the
  // solve rather than after it.
  check_output_directory(output_dir, "output");
  if (!save_geom.empty()) {
    // A bare name goes into output_dir, which write_dda makes.
    const auto parent = std::filesystem::path(save_geom).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent))
      fail_at({save_geom, 0, "save_geom", true}, "directory '", parent.string(), "' does not exist");
  }
}

std::filesystem::path DdaOutput::geometry_path() const {
  const std::filesystem::path p = save_geom;
  return p.has_parent_path() ? p : std::filesystem::path(output_dir) / p;
}

void write_dda(const DdaOutput& output, const DdaPlan& plan, const DdaResult& result, const RunRecord& record) {
  output.validate();
  make_output_directory(output.output_dir, "output");
  const DdaOptions& o = plan.options();
  if (!output.save_geom.empty()) {
    const std::string name = o.shape.kind == DdaShapeKind::file ? "read" : to_string(o.shape.kind);
    write_adda_shape_file(output.geometry_path(), plan.setup().geometry, name, record);
  }
  dda::write_adda_files(output.output_dir, result, o, record);
}

}  // namespace nanoscatter
