// File bytes for the detector readers, with gzip inflated in memory (zlib):
// .tif.gz and .cbf.gz are how many beamlines archive frames.
#include <zlib.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "io/detector/formats.hpp"
#include "nanoscatter/resource_guard.hpp"

namespace nanoscatter::detector {
namespace {

constexpr unsigned char kGzipMagic[2] = {0x1f, 0x8b};
// Header, padding and metadata a file may carry besides its pixels.
constexpr std::size_t kHeaderAllowanceBytes = std::size_t(64) << 20;
constexpr std::size_t kBytesPerPixelAtMost = 8;  // float64 / int64
constexpr std::size_t kInflateChunkBytes = std::size_t(1) << 20;

bool is_gzip(const std::vector<unsigned char>& b) {
  return b.size() >= 2 && b[0] == kGzipMagic[0] && b[1] == kGzipMagic[1];
}

std::size_t max_file_bytes(const DetectorReadOptions& o) {
  return o.max_pixels * kBytesPerPixelAtMost + kHeaderAllowanceBytes;
}

std::vector<unsigned char> gunzip(const std::string& file, const std::vector<unsigned char>& in, std::size_t limit) {
  z_stream z{};
  // 16 + MAX_WBITS: accept the gzip wrapper, not only raw zlib.
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) fail_at({file, 0, "gzip"}, "cannot start zlib");
  std::vector<unsigned char> out;
  z.next_in = const_cast<unsigned char*>(in.data());
  z.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size(), std::numeric_limits<uInt>::max()));
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const std::size_t had = out.size();
    if (had + kInflateChunkBytes > limit) {
      inflateEnd(&z);
      fail_at({file, 0, "gzip"}, "inflates to more than ", limit, " bytes (max_pixels)");
    }
    out.resize(had + kInflateChunkBytes);
    z.next_out = out.data() + had;
    z.avail_out = static_cast<uInt>(kInflateChunkBytes);
    rc = inflate(&z, Z_NO_FLUSH);
    out.resize(had + kInflateChunkBytes - z.avail_out);
    if (rc == Z_BUF_ERROR && z.avail_in == 0) {
      inflateEnd(&z);
      fail_at({file, 0, "gzip"}, "truncated gzip stream");
    }
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      const std::string why = z.msg ? z.msg : "error " + std::to_string(rc);
      inflateEnd(&z);
      fail_at({file, 0, "gzip"}, "corrupt gzip stream: ", why);
    }
  }
  inflateEnd(&z);
  return out;
}

}  // namespace

std::vector<unsigned char> read_file_bytes(const std::string& file, const DetectorReadOptions& options) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) fail_at({file, 0, ""}, "cannot open");
  const auto size = static_cast<std::size_t>(in.tellg());
  if (size > max_file_bytes(options))
    fail_at({file, 0, ""}, "file of ", size, " bytes is larger than an image within max_pixels can be");
  std::vector<unsigned char> bytes(size);
  in.seekg(0);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size)))
    fail_at({file, 0, ""}, "cannot read");
  return is_gzip(bytes) ? gunzip(file, bytes, max_file_bytes(options)) : bytes;
}

void check_size(const Where& where, std::size_t rows, std::size_t cols, const DetectorReadOptions& o) {
  if (rows == 0 || cols == 0) fail_at(where, "empty image (", rows, " × ", cols, " pixels)");
  // What the header's claim would cost in float64, named in every refusal.
  const double bytes = double(rows) * double(cols) * sizeof(double);
  const std::string claim = nanoscatter::detail::concat(rows, " × ", cols, " pixels");
  if (rows > o.max_side || cols > o.max_side)
    fail_at(where, claim, " (~", format_gigabytes(bytes), "): a side exceeds the limit of ", o.max_side, " (max_side)");
  if (rows > o.max_pixels / cols)
    fail_at(where, claim, " (~", format_gigabytes(bytes), ") exceed the limit of ", o.max_pixels,
            " pixels (max_pixels)");
  require_host_memory(where, claim, bytes);
}

void check_single_frame(const std::string& file, const DetectorReadOptions& options) {
  if (options.frame != 0) fail_at({file, 0, "frame"}, "frame ", options.frame, " requested; the file holds one image");
}

}  // namespace nanoscatter::detector
