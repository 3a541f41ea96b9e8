// Readers behind read_image (target_io.cpp).
#pragma once
#include <filesystem>

#include "nanoscatter/rmc.hpp"

namespace nanoscatter::rmc {

// First page of a one-channel TIFF (libtiff); errors name the file. Throws
// "this build has no TIFF support" when libtiff was not found at configure time.
Image2D read_tiff(const std::filesystem::path& path);

}  // namespace nanoscatter::rmc
