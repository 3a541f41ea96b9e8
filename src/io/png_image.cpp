// The PNG encoder (io_png.hpp): 8-bit RGB rows and tEXt entries to a file.
// libpng reports errors by longjmp, so the encoding step lives in one
// C-style function with no C++ objects that need destructors; everything
// it needs is prepared beforehand and its failure becomes an Error after.
#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "nanoscatter/atomic_file.hpp"
#include "nanoscatter/error.hpp"
#include "nanoscatter/io_png.hpp"

namespace nanoscatter {
namespace {

constexpr std::size_t error_text_size = 256;

void on_png_error(png_structp png, png_const_charp message) {
  auto* buffer = static_cast<char*>(png_get_error_ptr(png));
  std::snprintf(buffer, error_text_size, "%s", message);
  png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}  // warnings do not stop the picture

// Encodes 8-bit RGB rows into `file`; on failure writes libpng's reason into
// `error_text` (error_text_size bytes) and returns false.
bool encode_rgb(std::FILE* file, png_bytep* row_pointers, png_uint_32 width, png_uint_32 height,
                png_textp texts, int text_count, char* error_text) {
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, error_text, on_png_error, on_png_warning);
  if (!png) {
    std::snprintf(error_text, error_text_size, "out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(error_text, error_text_size, "out of memory");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_text(png, info, texts, text_count);
  png_write_info(png, info);
  png_write_image(png, row_pointers);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

void write_rgb_png(const std::filesystem::path& path, const std::vector<std::uint8_t>& rgb, std::size_t width,
                   std::size_t height, const std::vector<std::pair<std::string, std::string>>& text) {
  const std::string file = path.string();
  // PNG stores width and height as 31-bit numbers (PNG spec, IHDR).
  constexpr std::size_t png_max = 0x7fffffff;
  if (width == 0 || height == 0 || width > png_max || height > png_max)
    fail_at({file, 0, "image"}, "a PNG takes 1 to 2^31 - 1 pixels a side, got ", width, "x", height);
  if (rgb.size() != width * height * 3)
    fail_at({file, 0, "image"}, rgb.size(), " bytes for ", width, "x", height, " RGB pixels");
  std::vector<std::pair<std::string, std::string>> text_entries = text;
  for (const auto& [key, value] : text_entries) {
    if (key.empty() || key.size() > 79)
      fail_at({file, 0, "text"}, "PNG text keyword must have 1 to 79 characters: '", key, "'");
  }
  text_entries.emplace_back("Software", "nanoscatter " NANOSCATTER_VERSION);
  // libpng takes non-const rows; it only reads them.
  std::vector<png_bytep> row_pointers(height);
  for (std::size_t y = 0; y < height; ++y) row_pointers[y] = const_cast<png_bytep>(&rgb[y * width * 3]);
  std::vector<png_text> texts(text_entries.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    texts[i] = png_text{};
    texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
    texts[i].key = text_entries[i].first.data();
    texts[i].text = text_entries[i].second.data();
    texts[i].text_length = text_entries[i].second.size();
  }

  AtomicOutput out(path);
  std::FILE* fp = std::fopen(out.temp_path().c_str(), "wb");
  if (!fp) fail_at({file, 0, ""}, "cannot create file: ", std::strerror(errno));
  char error_text[error_text_size] = {};
  const bool encoded = encode_rgb(fp, row_pointers.data(), static_cast<png_uint_32>(width),
                                  static_cast<png_uint_32>(height), texts.data(),
                                  static_cast<int>(texts.size()), error_text);
  const bool write_failed = std::ferror(fp) != 0;
  const int close_status = std::fclose(fp);
  if (!encoded) fail_at({file, 0, ""}, "PNG encoding failed: ", error_text);
  if (write_failed || close_status != 0)
    fail_at({file, 0, ""}, "write failed: ", std::strerror(errno));
  out.commit();
}

const std::array<std::array<std::uint8_t, 3>, 10>& plot_colours() {
  // matplotlib's tab10 cycle, the total first in black.
  static const std::array<std::array<std::uint8_t, 3>, 10> colours{{{0, 0, 0},
                                                                     {31, 119, 180},
                                                                     {255, 127, 14},
                                                                     {44, 160, 44},
                                                                     {214, 39, 40},
                                                                     {148, 103, 189},
                                                                     {140, 86, 75},
                                                                     {227, 119, 194},
                                                                     {127, 127, 127},
                                                                     {23, 190, 207}}};
  return colours;
}

}  // namespace nanoscatter
