// Which writer an `--output` path asks for, from its extension
// (docs/design.md command-line contract).
#pragma once
#include <filesystem>
#include <string_view>

namespace nanoscatter {

enum class OutputFormat { text, hdf5, png, xyz };

// .dat .txt .csv → text, .h5 .hdf5 → hdf5, .png → png, .xyz → xyz; the
// extension is matched case-insensitively. Anything else throws an Error
// naming the path and `--output` and listing the accepted extensions.
OutputFormat output_format_from_path(const std::filesystem::path& path);

// "text", "hdf5", "png", "xyz" (for messages).
std::string_view to_string(OutputFormat format);

}  // namespace nanoscatter
