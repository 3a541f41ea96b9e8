// TIFF images through libtiff. Optional: compiled in when CMake found
// libtiff and defined NANOSCATTER_HAVE_TIFF=1. Detector TIFFs (Pilatus,
// Eiger, …) hold one channel of 8/16/32-bit integers or 32/64-bit floats, in
// strips or tiles, possibly compressed; libtiff decodes all of these and
// returns native byte order.
#include "rmc/image_readers.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "nanoscatter/error.hpp"

#ifndef NANOSCATTER_HAVE_TIFF
#define NANOSCATTER_HAVE_TIFF 0
#endif

#if NANOSCATTER_HAVE_TIFF
#include <tiffio.h>

#include <cstdarg>
#include <cstdio>
#include <memory>
#endif

namespace nanoscatter {

bool tiff_supported() { return NANOSCATTER_HAVE_TIFF != 0; }

namespace rmc {

#if NANOSCATTER_HAVE_TIFF
namespace {

// libtiff reports through handlers; this one keeps the first message so
// that it becomes part of our Error instead of going to stderr.
int keep_first_message(TIFF*, void* user_data, const char*, const char* format, va_list args) {
  auto* message = static_cast<std::string*>(user_data);
  if (message->empty()) {
    char buf[512];
    std::vsnprintf(buf, sizeof buf, format, args);
    *message = buf;
  }
  return 1;  // handled: libtiff prints nothing
}

int ignore_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

double sample_value(const unsigned char* p, int bits, int format) {
  switch (format) {
    case SAMPLEFORMAT_IEEEFP:
      if (bits == 32) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
      } else {
        double v;
        std::memcpy(&v, p, 8);
        return v;
      }
    case SAMPLEFORMAT_INT:
      switch (bits) {
        case 8: return double(*reinterpret_cast<const std::int8_t*>(p));
        case 16: { std::int16_t v; std::memcpy(&v, p, 2); return v; }
        case 32: { std::int32_t v; std::memcpy(&v, p, 4); return v; }
        default: { std::int64_t v; std::memcpy(&v, p, 8); return double(v); }
      }
    default:
      switch (bits) {
        case 8: return double(*p);
        case 16: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
        case 32: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
        default: { std::uint64_t v; std::memcpy(&v, p, 8); return double(v); }
      }
  }
}

}  // namespace

Image2D read_tiff(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::string message;
  std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> opts(TIFFOpenOptionsAlloc(), TIFFOpenOptionsFree);
  TIFFOpenOptionsSetErrorHandlerExtR(opts.get(), keep_first_message, &message);
  TIFFOpenOptionsSetWarningHandlerExtR(opts.get(), ignore_warning, nullptr);
  std::unique_ptr<TIFF, void (*)(TIFF*)> tif(TIFFOpenExt(name.c_str(), "r", opts.get()), TIFFClose);
  if (!tif) fail_at({name, 0, ""}, "cannot read as TIFF", message.empty() ? "" : ": ", message);

  std::uint32_t width = 0, height = 0;
  std::uint16_t bits = 1, samples = 1, format = SAMPLEFORMAT_UINT;
  TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &height);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_BITSPERSAMPLE, &bits);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLESPERPIXEL, &samples);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLEFORMAT, &format);
  if (width == 0 || height == 0) fail_at({name, 0, "ImageWidth"}, "empty image");
  if (samples != 1) fail_at({name, 0, "SamplesPerPixel"}, "expected one channel, got ", samples);
  const bool float_ok = format == SAMPLEFORMAT_IEEEFP && (bits == 32 || bits == 64);
  const bool int_ok = (format == SAMPLEFORMAT_UINT || format == SAMPLEFORMAT_INT) &&
                      (bits == 8 || bits == 16 || bits == 32 || bits == 64);
  if (!float_ok && !int_ok)
    fail_at({name, 0, "BitsPerSample"}, "unsupported sample type (", bits, "-bit, SampleFormat ", format,
            "); expected 8/16/32/64-bit integers or 32/64-bit floats");

  Image2D img;
  img.rows = height;
  img.cols = width;
  img.data.resize(std::size_t(width) * height);
  const std::size_t bytes = bits / 8;
  if (TIFFIsTiled(tif.get())) {
    std::uint32_t tw = 0, th = 0;
    TIFFGetField(tif.get(), TIFFTAG_TILEWIDTH, &tw);
    TIFFGetField(tif.get(), TIFFTAG_TILELENGTH, &th);
    std::vector<unsigned char> buf(std::size_t(TIFFTileSize(tif.get())));
    for (std::uint32_t y0 = 0; y0 < height; y0 += th)
      for (std::uint32_t x0 = 0; x0 < width; x0 += tw) {
        if (TIFFReadTile(tif.get(), buf.data(), x0, y0, 0, 0) < 0)
          fail_at({name, 0, ""}, "cannot read the tile at (", y0, ", ", x0, ")", message.empty() ? "" : ": ", message);
        for (std::uint32_t y = y0; y < std::min(height, y0 + th); ++y)
          for (std::uint32_t x = x0; x < std::min(width, x0 + tw); ++x)
            img.data[std::size_t(y) * width + x] =
                sample_value(buf.data() + (std::size_t(y - y0) * tw + (x - x0)) * bytes, bits, format);
      }
  } else {
    std::vector<unsigned char> buf(std::size_t(TIFFScanlineSize(tif.get())));
    for (std::uint32_t y = 0; y < height; ++y) {
      if (TIFFReadScanline(tif.get(), buf.data(), y, 0) < 0)
        fail_at({name, 0, ""}, "cannot read row ", y, message.empty() ? "" : ": ", message);
      for (std::uint32_t x = 0; x < width; ++x)
        img.data[std::size_t(y) * width + x] = sample_value(buf.data() + std::size_t(x) * bytes, bits, format);
    }
  }
  return img;
}
#else
Image2D read_tiff(const std::filesystem::path& path) {
  fail_at({path.string(), 0, ""}, "this build has no TIFF support (libtiff was not found when it was configured)");
}
#endif

}  // namespace rmc
}  // namespace nanoscatter
