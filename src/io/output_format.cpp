#include "nanoscatter/output_format.hpp"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "nanoscatter/error.hpp"

namespace nanoscatter {

OutputFormat output_format_from_path(const std::filesystem::path& path) {
  static constexpr std::array<std::pair<std::string_view, OutputFormat>, 7> known{{
      {".dat", OutputFormat::text},
      {".txt", OutputFormat::text},
      {".csv", OutputFormat::text},
      {".h5", OutputFormat::hdf5},
      {".hdf5", OutputFormat::hdf5},
      {".png", OutputFormat::png},
      {".xyz", OutputFormat::xyz},
  }};
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [suffix, format] : known)
    if (ext == suffix) return format;
  const std::string shown = ext.empty() ? "no extension" : "unknown extension '" + ext + "'";
  fail_at({path.string(), 0, "--output"}, shown,
          "; use .dat/.txt/.csv (text), .h5/.hdf5 (HDF5), .png (picture) or .xyz (structure)");
}

std::string_view to_string(OutputFormat format) {
  switch (format) {
    case OutputFormat::text: return "text";
    case OutputFormat::hdf5: return "hdf5";
    case OutputFormat::png: return "png";
    case OutputFormat::xyz: return "xyz";
  }
  return "unknown";
}

}  // namespace nanoscatter
