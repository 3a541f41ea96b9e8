// EDF (ESRF data format): each frame is an ASCII header in braces,
//   { Dim_1 = 1043 ; Dim_2 = 981 ; DataType = SignedInteger ;
//     ByteOrder = LowByteFirst ; Size = 4092132 ; ... }
// padded to a multiple of 512 bytes and followed by Size bytes of raw
// pixels, Dim_1 (fastest, columns) × Dim_2 (rows), the first row on top.
// No Debian C library reads it, and the format is this small.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <map>

#include "io/detector/formats.hpp"
#include "nanoscatter/whole_number.hpp"

namespace nanoscatter::detector {
namespace {

struct SampleType {
  std::size_t bytes;
  bool is_float;
  bool is_signed;
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The DataType names of the ESRF and fabio writers (case ignored).
const std::map<std::string, SampleType>& sample_types() {
  static const std::map<std::string, SampleType> types = {
      {"signedbyte", {1, false, true}},      {"unsignedbyte", {1, false, false}},
      {"unsignedchar", {1, false, false}},   {"signedshort", {2, false, true}},
      {"unsignedshort", {2, false, false}},  {"signedinteger", {4, false, true}},
      {"unsignedinteger", {4, false, false}}, {"signedlong", {4, false, true}},
      {"unsignedlong", {4, false, false}},   {"signed32", {4, false, true}},
      {"unsigned32", {4, false, false}},     {"signed64", {8, false, true}},
      {"unsigned64", {8, false, false}},     {"floatvalue", {4, true, true}},
      {"float", {4, true, true}},            {"doublevalue", {8, true, true}},
      {"double", {8, true, true}}};
  return types;
}

double decode(const unsigned char* p, const SampleType& t, bool swap) {
  unsigned char b[8];
  std::memcpy(b, p, t.bytes);
  if (swap) std::reverse(b, b + t.bytes);
  auto as = [&b]<class T>(T) {
    T v;
    std::memcpy(&v, b, sizeof v);
    return double(v);
  };
  if (t.is_float) return t.bytes == 4 ? as(float{}) : as(double{});
  switch (t.bytes) {
    case 1: return t.is_signed ? as(std::int8_t{}) : as(std::uint8_t{});
    case 2: return t.is_signed ? as(std::int16_t{}) : as(std::uint16_t{});
    case 4: return t.is_signed ? as(std::int32_t{}) : as(std::uint32_t{});
    default: return t.is_signed ? as(std::int64_t{}) : as(std::uint64_t{});
  }
}

std::size_t parse_count(const std::map<std::string, std::string>& h, const std::string& key, const std::string& file) {
  const auto it = h.find(lower(key));
  if (it == h.end()) fail_at({file, 0, key}, "missing from the EDF header");
  const std::string& v = it->second;
  const auto count = whole_number(v, 0);
  if (!count) fail_at({file, 0, key}, "expected a non-negative integer, found '", v, "'");
  return std::size_t(*count);
}

}  // namespace

DetectorImage read_edf(const std::string& file, const std::vector<unsigned char>& bytes,
                       const DetectorReadOptions& options) {
  std::size_t pos = 0;
  for (std::size_t frame = 0;; ++frame) {
    while (pos < bytes.size() && std::isspace(bytes[pos])) ++pos;
    if (pos >= bytes.size())
      fail_at({file, 0, "frame"}, "frame ", options.frame, " requested; the file holds ", frame);
    if (bytes[pos] != '{') fail_at({file, 0, "header"}, "expected '{' at byte ", pos, " (not an EDF file?)");
    const auto close = std::find(bytes.begin() + std::ptrdiff_t(pos), bytes.end(), '}');
    if (close == bytes.end()) fail_at({file, 0, "header"}, "header without closing '}' (truncated file?)");
    const std::string header(bytes.begin() + std::ptrdiff_t(pos) + 1, close);
    std::size_t data = std::size_t(close - bytes.begin()) + 1;
    if (data < bytes.size() && bytes[data] == '\r') ++data;
    if (data < bytes.size() && bytes[data] == '\n') ++data;

    std::map<std::string, std::string> h;  // keys lower-cased
    std::size_t start = 0;
    while (start < header.size()) {
      std::size_t end = header.find(';', start);
      if (end == std::string::npos) end = header.size();
      const std::string entry = header.substr(start, end - start);
      const std::size_t eq = entry.find('=');
      if (eq != std::string::npos) h[lower(trim(entry.substr(0, eq)))] = trim(entry.substr(eq + 1));
      start = end + 1;
    }
    const std::size_t cols = parse_count(h, "Dim_1", file);
    const std::size_t rows = h.count("dim_2") ? parse_count(h, "Dim_2", file) : 1;
    check_size({file, 0, "Dim_1"}, rows, cols, options);
    const auto type_it = h.find("datatype");
    if (type_it == h.end()) fail_at({file, 0, "DataType"}, "missing from the EDF header");
    const auto t = sample_types().find(lower(type_it->second));
    if (t == sample_types().end()) fail_at({file, 0, "DataType"}, "unsupported type '", type_it->second, "'");
    const SampleType type = t->second;
    const std::size_t need = rows * cols * type.bytes;
    const std::size_t size = h.count("size") ? parse_count(h, "Size", file) : need;
    if (size != need)
      fail_at({file, 0, "Size"}, size, " bytes for ", rows, " × ", cols, " pixels of ", type.bytes, " bytes each");
    if (auto c = h.find("compression"); c != h.end() && lower(c->second) != "none")
      fail_at({file, 0, "Compression"}, "compressed EDF ('", c->second, "') is not supported");
    if (data > bytes.size() || bytes.size() - data < size)
      fail_at({file, 0, "Size"}, "truncated file: ", size, " data bytes announced, ",
              data > bytes.size() ? 0 : bytes.size() - data, " present");
    if (frame < options.frame) {
      pos = data + size;
      continue;
    }
    const std::string order = h.count("byteorder") ? h["byteorder"] : "LowByteFirst";
    if (order != "LowByteFirst" && order != "HighByteFirst")
      fail_at({file, 0, "ByteOrder"}, "expected LowByteFirst or HighByteFirst, found '", order, "'");
    const bool swap = (order == "HighByteFirst") == (std::endian::native == std::endian::little);
    DetectorImage img;
    img.rows = rows;
    img.cols = cols;
    img.values.resize(rows * cols);
    for (std::size_t i = 0; i < img.values.size(); ++i) img.values[i] = decode(&bytes[data + i * type.bytes], type, swap);
    return img;
  }
}

}  // namespace nanoscatter::detector
