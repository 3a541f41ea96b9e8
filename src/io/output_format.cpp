#include "nanoscatter/output_format.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "nanoscatter/error.hpp"

namespace nanoscatter {

OutputFormat output_format_from_path(const std::filesystem::path& path) {
  static constexpr std::array<std::pair<std::string_view, OutputFormat>, 8> known{{
      {".dat", OutputFormat::text},
      {".txt", OutputFormat::text},
      {".csv", OutputFormat::text},
      {".h5", OutputFormat::hdf5},
      {".hdf5", OutputFormat::hdf5},
      {".png", OutputFormat::png},
      {".xyz", OutputFormat::xyz},
      {".xye", OutputFormat::xye},
  }};
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [suffix, format] : known)
    if (ext == suffix) return format;
  const std::string shown = ext.empty() ? "no extension" : "unknown extension '" + ext + "'";
  fail_at({path.string(), 0, "output", true}, shown,
          "; use .dat/.txt/.csv (text), .h5/.hdf5 (HDF5), .png (picture), .xyz (structure) or .xye (powder pattern)");
}

namespace {
std::string described(OutputFormat f) {
  switch (f) {
    case OutputFormat::text: return "text (.dat, .txt, .csv)";
    case OutputFormat::hdf5: return "HDF5 (.h5, .hdf5)";
    case OutputFormat::png: return "a picture (.png)";
    case OutputFormat::xyz: return "a structure (.xyz)";
    case OutputFormat::xye: return "a powder pattern (.xye)";
  }
  return "";
}
}  // namespace

OutputFormat checked_output_path(const std::string& path, const std::string& option,
                                 std::initializer_list<OutputFormat> allowed, const std::string& engine) {
  const Where where{path, 0, option, true};
  std::string list;
  std::size_t k = 0;
  for (const OutputFormat f : allowed) {
    if (k) list += k + 1 == allowed.size() ? " or " : ", ";
    list += described(f);
    ++k;
  }
  const std::string expected = allowed.size() == 1 ? "expects a " + std::string(to_string(*allowed.begin())) + " file name"
                                                   : engine + " writes " + list;
  OutputFormat format;
  try {
    format = output_format_from_path(path);
  } catch (const Error& e) {
    const std::string reason = e.reason();  // "unknown extension '.x'; use ..." (every writer's list)
    fail_at(where, reason.substr(0, reason.find(';')), "; ", expected);
  }
  if (std::find(allowed.begin(), allowed.end(), format) == allowed.end()) fail_at(where, expected);
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_at(where, "directory '", dir.string(), "' does not exist");
  return format;
}

std::string_view to_string(OutputFormat format) {
  switch (format) {
    case OutputFormat::text: return "text";
    case OutputFormat::hdf5: return "hdf5";
    case OutputFormat::png: return "png";
    case OutputFormat::xyz: return "xyz";
    case OutputFormat::xye: return "xye";
  }
  return "unknown";
}

}  // namespace nanoscatter
