// The MIME header of each CBF binary section, read by us before CBFlib
// sees the file: CBFlib 0.9.7 sizes its buffers from these fields, and a
// small crafted file made it grow one past 2 GB (finding 7,
// bench/results/2026-11-26-fuzz.md). A section is refused when its
// declared sizes disagree with each other or exceed the bytes present.
//
//   --CIF-BINARY-FORMAT-SECTION--
//   Content-Type: application/octet-stream;
//        conversions="x-CBF_BYTE_OFFSET"
//   X-Binary-Size: 12
//   X-Binary-Element-Type: "signed 32-bit integer"
//   X-Binary-Number-of-Elements: 12
//   X-Binary-Size-Fastest-Dimension: 4
//   X-Binary-Size-Second-Dimension: 3
//   <blank line> 0C 1A 04 D5 <X-Binary-Size bytes>
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include "io/detector/formats.hpp"

namespace nanoscatter::detector {
namespace {

constexpr std::string_view kSectionMark = "--CIF-BINARY-FORMAT-SECTION--";
constexpr std::string_view kBinaryStart = "\x0c\x1a\x04\xd5";
// Larger sizes are not sizes of a file (and their products must not wrap).
constexpr std::uint64_t kMaxDeclared = std::uint64_t(1) << 48;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Bytes per element of an X-Binary-Element-Type, 0 when unknown.
std::size_t element_bytes(std::string type) {
  type.erase(std::remove(type.begin(), type.end(), '"'), type.end());
  for (const auto& [name, bytes] : std::initializer_list<std::pair<const char*, std::size_t>>{
           {"signed 8-bit integer", 1}, {"unsigned 8-bit integer", 1}, {"signed 16-bit integer", 2},
           {"unsigned 16-bit integer", 2}, {"signed 32-bit integer", 4}, {"unsigned 32-bit integer", 4},
           {"signed 64-bit integer", 8}, {"unsigned 64-bit integer", 8}, {"signed 32-bit real ieee", 4},
           {"signed 64-bit real ieee", 8}, {"signed 32-bit complex ieee", 8}, {"signed 64-bit complex ieee", 16}})
    if (lower(trim(type)) == name) return bytes;
  return 0;
}

struct Section {
  std::map<std::string, std::string> fields;  // lower-case name → value
  std::size_t header_offset = 0;             // of the section mark
  std::optional<std::size_t> data_offset;    // first byte after 0C 1A 04 D5
};

// The header lines from `begin` to the binary start (or the end of the
// file); a line opening with white space continues the one before.
Section parse_section(std::string_view text, std::size_t begin) {
  Section s;
  s.header_offset = begin;
  // The data start, if any, comes before the section's closing mark.
  const std::size_t next_mark = std::min(text.find(kSectionMark, begin + kSectionMark.size()), text.size());
  const std::size_t start = text.find(kBinaryStart, begin);
  const std::size_t end = start < next_mark ? start : next_mark;
  if (start < next_mark) s.data_offset = start + kBinaryStart.size();
  std::string last;
  for (std::size_t pos = begin + kSectionMark.size(); pos < end;) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos || eol > end) eol = end;
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    if (trim(line).empty()) continue;
    if (std::isspace(static_cast<unsigned char>(line.front()))) {
      if (!last.empty()) s.fields[last] += " " + std::string(trim(line));
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    last = lower(trim(line.substr(0, colon)));
    s.fields[last] = std::string(trim(line.substr(colon + 1)));
  }
  return s;
}

// A field's value as a size: absent → nullopt; not a plain count → Error.
std::optional<std::uint64_t> size_field(const std::string& file, const Section& s, const char* name) {
  const auto it = s.fields.find(lower(name));
  if (it == s.fields.end()) return std::nullopt;
  const std::string& v = it->second;
  std::uint64_t n = 0;
  bool digits = !v.empty();
  for (char c : v) {
    if (!std::isdigit(static_cast<unsigned char>(c)) || n > kMaxDeclared) {
      digits = false;
      break;
    }
    n = n * 10 + std::uint64_t(c - '0');
  }
  if (!digits || n > kMaxDeclared) fail_at({file, 0, name}, "'", v, "' is not a size (at most ", kMaxDeclared, ")");
  return n;
}

// Checks one section; returns the offset just past its data.
std::size_t check_section(const std::string& file, const Section& s, std::size_t file_size) {
  const auto size = size_field(file, s, "X-Binary-Size");
  const auto elements = size_field(file, s, "X-Binary-Number-of-Elements");
  const auto fastest = size_field(file, s, "X-Binary-Size-Fastest-Dimension");
  const auto second = size_field(file, s, "X-Binary-Size-Second-Dimension");
  const auto third = size_field(file, s, "X-Binary-Size-Third-Dimension");
  if (!size) fail_at({file, 0, "X-Binary-Size"}, "missing in the binary section's header");
  // BINARY sections hold the raw bytes after the data start; the text
  // encodings (BASE64, QUOTED-PRINTABLE, ...) never take fewer bytes than
  // they encode, and have no data start.
  const auto encoding = s.fields.find("content-transfer-encoding");
  const bool binary = encoding == s.fields.end() || lower(encoding->second) == "binary";
  if (binary && !s.data_offset)
    fail_at({file, 0, "X-Binary-Size"}, "the binary section has no data start (bytes 0C 1A 04 D5)");
  const std::size_t from = binary ? *s.data_offset : s.header_offset;
  const std::size_t present = file_size - from;
  if (*size > present)
    fail_at({file, 0, "X-Binary-Size"}, *size, " bytes declared, but the file has only ", present,
            binary ? " after the binary section's header" : " after the binary section's start");
  if (!elements) fail_at({file, 0, "X-Binary-Number-of-Elements"}, "missing in the binary section's header");
  if (fastest || second || third) {
    const std::uint64_t f = fastest.value_or(1), m = second.value_or(1), t = third.value_or(1);
    // Each factor is below 2^48: a product that would wrap is refused by
    // the division test first.
    const bool fits = (m == 0 || f <= kMaxDeclared / m) && (t == 0 || f * m <= kMaxDeclared / t);
    if (!fits || f * m * t != *elements)
      fail_at({file, 0, "X-Binary-Number-of-Elements"}, *elements, " elements, but the dimensions say ", f, " × ", m,
              third ? " × " + std::to_string(t) : std::string());
  }
  std::size_t bytes_each = 0;
  if (const auto type = s.fields.find("x-binary-element-type"); type != s.fields.end()) {
    bytes_each = element_bytes(type->second);
    if (bytes_each == 0) fail_at({file, 0, "X-Binary-Element-Type"}, "unknown element type ", type->second);
  }
  const auto content = s.fields.find("content-type");
  const std::string conversions = content == s.fields.end() ? "" : lower(content->second);
  if (conversions.find("x-cbf_byte_offset") != std::string::npos) {
    // Byte-offset compression spends at least one byte per element.
    if (*elements > *size)
      fail_at({file, 0, "X-Binary-Number-of-Elements"}, *elements, " elements in ", *size,
              " bytes (X-Binary-Size) of byte-offset data, which take at least one byte each");
  } else if ((conversions.find("conversions") == std::string::npos || conversions.find("x-cbf_none") != std::string::npos) &&
             bytes_each > 0) {
    // Uncompressed: the size is the elements' bytes.
    if (*elements > kMaxDeclared / bytes_each || *elements * bytes_each != *size)
      fail_at({file, 0, "X-Binary-Size"}, *size, " bytes for ", *elements, " uncompressed elements of ", bytes_each,
              " bytes");
  }
  return binary ? from + std::size_t(*size) : from + kSectionMark.size();
}

}  // namespace

void check_cbf_binary_sections(const std::string& file, const std::vector<unsigned char>& bytes) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  for (std::size_t mark = text.find(kSectionMark); mark != std::string_view::npos;) {
    const Section s = parse_section(text, mark);
    // The closing mark "--CIF-BINARY-FORMAT-SECTION----" follows the data.
    const bool closing = text.substr(mark, kSectionMark.size() + 2) == std::string(kSectionMark) + "--";
    const std::size_t next = closing ? mark + kSectionMark.size() : check_section(file, s, bytes.size());
    mark = text.find(kSectionMark, next);
  }
}

}  // namespace nanoscatter::detector
