// Which writer an `--output` path asks for, from its extension
// (docs/design.md command-line contract).
#pragma once
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

namespace nanoscatter {

enum class OutputFormat { text, hdf5, png, xyz, xye };

// .dat .txt .csv → text, .h5 .hdf5 → hdf5, .png → png, .xyz → xyz, .xye →
// xye (a powder pattern: 2θ, counts, σ); the
// extension is matched case-insensitively. Anything else throws an Error
// naming the path and `--output` and listing the accepted extensions.
OutputFormat output_format_from_path(const std::filesystem::path& path);

// An engine's output file name, checked before any work so that bad input
// leaves no file: the extension gives one of `allowed` and the directory
// exists. Errors name the path and `option` as an option field ("output",
// "pdf": the CLI prints --output, Python output) and list what `engine`
// writes there ("debye writes text (.dat, .txt, .csv), HDF5 (.h5, .hdf5) or
// a picture (.png)"; with one format: "expects a png file name").
OutputFormat checked_output_path(const std::string& path, const std::string& option,
                                 std::initializer_list<OutputFormat> allowed, const std::string& engine);

// "text", "hdf5", "png", "xyz", "xye" (for messages).
std::string_view to_string(OutputFormat format);

}  // namespace nanoscatter
