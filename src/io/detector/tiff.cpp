// TIFF detector images through libtiff, decoded from memory (so that a
// gunzipped .tif.gz needs no temporary file). Pilatus/ALBULA write one
// channel of int32, uint32, float32 or uint16 in one or several strips;
// libtiff also handles tiles and compression. Pilatus puts a miniCBF header
// into ImageDescription, read for the metadata.
#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

#include "io/detector/formats.hpp"

namespace nanoscatter::detector {
namespace {

struct MemoryFile {
  const std::vector<unsigned char>* bytes;
  toff_t pos = 0;
};

tmsize_t mem_read(thandle_t h, void* buf, tmsize_t size) {
  auto* f = static_cast<MemoryFile*>(h);
  const toff_t left = f->pos < f->bytes->size() ? f->bytes->size() - f->pos : 0;
  const auto n = std::min<toff_t>(left, toff_t(size));
  // libtiff asks for 0 bytes with a null buffer on some truncated headers;
  // memcpy's pointers must be valid even then.
  if (n > 0) std::memcpy(buf, f->bytes->data() + f->pos, n);
  f->pos += n;
  return tmsize_t(n);
}
tmsize_t mem_write(thandle_t, void*, tmsize_t) { return 0; }
toff_t mem_seek(thandle_t h, toff_t off, int whence) {
  auto* f = static_cast<MemoryFile*>(h);
  if (whence == SEEK_CUR) off += f->pos;
  if (whence == SEEK_END) off += f->bytes->size();
  f->pos = off;
  return off;
}
int mem_close(thandle_t) { return 0; }
toff_t mem_size(thandle_t h) { return static_cast<MemoryFile*>(h)->bytes->size(); }
int mem_map(thandle_t, void**, toff_t*) { return 0; }
void mem_unmap(thandle_t, void*, toff_t) {}

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

template <class T>
double load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return double(v);
}

double sample_value(const unsigned char* p, int bits, int format) {
  if (format == SAMPLEFORMAT_IEEEFP) return bits == 32 ? load<float>(p) : load<double>(p);
  if (format == SAMPLEFORMAT_INT) {
    switch (bits) {
      case 8: return load<std::int8_t>(p);
      case 16: return load<std::int16_t>(p);
      case 32: return load<std::int32_t>(p);
      default: return load<std::int64_t>(p);
    }
  }
  switch (bits) {
    case 8: return load<std::uint8_t>(p);
    case 16: return load<std::uint16_t>(p);
    case 32: return load<std::uint32_t>(p);
    default: return load<std::uint64_t>(p);
  }
}

std::string suffix(const std::string& message) { return message.empty() ? "" : ": " + message; }

}  // namespace

DetectorImage read_tiff(const std::string& name, const std::vector<unsigned char>& bytes,
                        const DetectorReadOptions& options) {
  check_single_frame(name, options);
  std::string message;
  MemoryFile memory{&bytes};
  std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> opts(TIFFOpenOptionsAlloc(), TIFFOpenOptionsFree);
  TIFFOpenOptionsSetErrorHandlerExtR(opts.get(), keep_first_message, &message);
  TIFFOpenOptionsSetWarningHandlerExtR(opts.get(), ignore_warning, nullptr);
  // "rm": read, no memory mapping (the procs above serve the bytes).
  std::unique_ptr<TIFF, void (*)(TIFF*)> tif(
      TIFFClientOpenExt(name.c_str(), "rm", &memory, mem_read, mem_write, mem_seek, mem_close, mem_size, mem_map,
                        mem_unmap, opts.get()),
      TIFFClose);
  if (!tif) fail_at({name, 0, ""}, "cannot read as TIFF", suffix(message));

  std::uint32_t width = 0, height = 0;
  std::uint16_t bits = 1, samples = 1, format = SAMPLEFORMAT_UINT;
  TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &height);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_BITSPERSAMPLE, &bits);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLESPERPIXEL, &samples);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLEFORMAT, &format);
  check_size({name, 0, "ImageLength"}, height, width, options);
  if (samples != 1) fail_at({name, 0, "SamplesPerPixel"}, "expected one channel, got ", samples);
  const bool float_ok = format == SAMPLEFORMAT_IEEEFP && (bits == 32 || bits == 64);
  const bool int_ok = (format == SAMPLEFORMAT_UINT || format == SAMPLEFORMAT_INT) &&
                      (bits == 8 || bits == 16 || bits == 32 || bits == 64);
  if (!float_ok && !int_ok)
    fail_at({name, 0, "BitsPerSample"}, "unsupported sample type (", bits, "-bit, SampleFormat ", format,
            "); expected 8/16/32/64-bit integers or 32/64-bit floats");

  DetectorImage img;
  img.rows = height;
  img.cols = width;
  img.values.resize(std::size_t(width) * height);
  const std::size_t bytes_per_sample = bits / 8;
  if (TIFFIsTiled(tif.get())) {
    std::uint32_t tw = 0, th = 0;
    TIFFGetField(tif.get(), TIFFTAG_TILEWIDTH, &tw);
    TIFFGetField(tif.get(), TIFFTAG_TILELENGTH, &th);
    if (tw == 0 || th == 0) fail_at({name, 0, "TileWidth"}, "zero tile size");
    // A tile may overhang the image, but one buffer holds a whole tile: the
    // header's tile size is held to the image limits before it is allocated.
    check_size({name, 0, "TileWidth"}, th, tw, options);
    std::vector<unsigned char> buf(std::size_t(TIFFTileSize(tif.get())));
    if (buf.size() < std::size_t(tw) * th * bytes_per_sample)
      fail_at({name, 0, "TileWidth"}, "inconsistent tile size", suffix(message));
    for (std::uint32_t y0 = 0; y0 < height; y0 += th)
      for (std::uint32_t x0 = 0; x0 < width; x0 += tw) {
        if (TIFFReadTile(tif.get(), buf.data(), x0, y0, 0, 0) < 0)
          fail_at({name, 0, "TileOffsets"}, "cannot read the tile at (", y0, ", ", x0, ")", suffix(message));
        for (std::uint32_t y = y0; y < std::min(height, y0 + th); ++y)
          for (std::uint32_t x = x0; x < std::min(width, x0 + tw); ++x)
            img.values[std::size_t(y) * width + x] =
                sample_value(buf.data() + (std::size_t(y - y0) * tw + (x - x0)) * bytes_per_sample, bits, format);
      }
  } else {
    // Scanlines in order work for one strip and for many (libtiff moves on
    // from strip to strip).
    std::vector<unsigned char> buf(std::size_t(TIFFScanlineSize(tif.get())));
    if (buf.size() < std::size_t(width) * bytes_per_sample) fail_at({name, 0, "ImageWidth"}, "inconsistent row size");
    for (std::uint32_t y = 0; y < height; ++y) {
      if (TIFFReadScanline(tif.get(), buf.data(), y, 0) < 0)
        fail_at({name, 0, "StripOffsets"}, "cannot read row ", y, suffix(message));
      for (std::uint32_t x = 0; x < width; ++x)
        img.values[std::size_t(y) * width + x] = sample_value(buf.data() + x * bytes_per_sample, bits, format);
    }
  }
  char* description = nullptr;
  if (TIFFGetField(tif.get(), TIFFTAG_IMAGEDESCRIPTION, &description) && description)
    parse_minicbf_header(description, img.metadata);
  return img;
}

}  // namespace nanoscatter::detector
