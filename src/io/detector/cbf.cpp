// CBF detector images through CBFlib (Pilatus: byte-offset compressed
// integers, a miniCBF header in _array_data.header_contents). CBFlib reads
// from a FILE*, which fmemopen gives over the (possibly gunzipped) bytes.
// The fastest dimension runs along a row (columns), the second gives the rows.
#include <algorithm>
#include <cbflib/cbf.h>

#include <cstdint>
#include <cstdio>
#include <memory>

#include "io/detector/formats.hpp"

namespace nanoscatter::detector {
namespace {

constexpr char kBinarySectionMark[] = "--CIF-BINARY-FORMAT-SECTION--";

struct HandleDeleter {
  void operator()(cbf_handle_struct* h) const { cbf_free_handle(h); }
};

void check(int rc, const std::string& file, const char* field, const char* what) {
  if (rc != 0) fail_at({file, 0, field}, what, " (CBFlib: ", cbf_strerror(rc), ")");
}

DetectorImage decode_cbf(const std::string& file, std::vector<unsigned char>& bytes,
                         const DetectorReadOptions& options) {
  // The text before the binary section holds the miniCBF "# Key value" lines.
  const std::string text(bytes.begin(), bytes.end());
  const std::size_t binary = text.find(kBinarySectionMark);
  DetectorImage img;
  parse_minicbf_header(text.substr(0, binary), img.metadata);

  cbf_handle raw = nullptr;
  check(cbf_make_handle(&raw), file, "", "cannot start CBFlib");
  std::unique_ptr<cbf_handle_struct, HandleDeleter> h(raw);
  // CBFlib logs parse problems to stderr; the Error carries the reason.
  cbf_set_cbf_logfile(h.get(), nullptr);
  FILE* stream = fmemopen(bytes.data(), bytes.size(), "rb");
  if (!stream) fail_at({file, 0, ""}, "cannot open the bytes as a stream");
  // CBFlib owns the stream from here and closes it with the handle.
  check(cbf_read_file(h.get(), stream, MSG_NODIGEST), file, "header", "cannot read as CBF");
  check(cbf_find_category(h.get(), "array_data"), file, "_array_data", "no array_data category");
  check(cbf_find_column(h.get(), "data"), file, "_array_data.data", "no data column");

  unsigned int compression = 0;
  int id = 0, elsigned = 0, elunsigned = 0, minel = 0, maxel = 0, real = 0;
  std::size_t elsize = 0, nelem = 0, fast = 0, mid = 0, slow = 0, padding = 0;
  const char* byteorder = nullptr;
  check(cbf_get_arrayparameters_wdims(h.get(), &compression, &id, &elsize, &elsigned, &elunsigned, &nelem, &minel,
                                      &maxel, &real, &byteorder, &fast, &mid, &slow, &padding),
        file, "_array_data.data", "cannot read the array parameters");
  // A 2D image has Fastest (columns) and Second (rows) dimensions; a Third
  // of more than 1 would be a 3D array.
  if (slow > 1) fail_at({file, 0, "X-Binary-Size-Third-Dimension"}, "3D arrays are not detector images");
  const std::size_t rows = mid > 0 ? mid : 1;
  check_size({file, 0, "X-Binary-Size-Fastest-Dimension"}, rows, fast, options);
  if (nelem != fast * rows)
    fail_at({file, 0, "X-Binary-Number-of-Elements"}, nelem, " elements for ", rows, " × ", fast, " pixels");
  img.rows = rows;
  img.cols = fast;
  // CBFlib 0.9.7's byte-offset decoder does not stop at the element count it
  // is given: a stream holding more values than X-Binary-Number-of-Elements
  // writes them all past the array (found by fuzz/detector_cbf;
  // bench/results/2026-11-26-fuzz.md). Each byte-offset value takes at least
  // one byte of the file, so an array of as many elements as the file has
  // bytes holds whatever the decoder writes; other compressions get a
  // margin. A stream shorter than nelem is refused below.
  constexpr std::size_t kDecoderSlack = 16;
  const std::size_t capacity =
      (compression == CBF_BYTE_OFFSET ? std::max(nelem, bytes.size()) : nelem) + kDecoderSlack;
  img.values.resize(capacity);
  std::size_t read = 0;
  if (real) {
    if (elsize != sizeof(float) && elsize != sizeof(double))
      fail_at({file, 0, "X-Binary-Element-Type"}, "unsupported real element size ", elsize);
    // Read as double directly: CBFlib converts.
    check(cbf_get_realarray(h.get(), &id, img.values.data(), sizeof(double), nelem, &read), file, "_array_data.data",
          "cannot decode the data");
  } else {
    std::vector<std::int64_t> ints(capacity);
    check(cbf_get_integerarray(h.get(), &id, ints.data(), sizeof(std::int64_t), elsigned || !elunsigned, nelem, &read),
          file, "_array_data.data", "cannot decode the data");
    for (std::size_t i = 0; i < nelem; ++i) img.values[i] = double(ints[i]);
  }
  if (read != nelem) fail_at({file, 0, "_array_data.data"}, "truncated: ", read, " of ", nelem, " values");
  img.values.resize(nelem);
  return img;
}

}  // namespace

// CBFlib grows its buffers to whatever a crafted header says (finding 7,
// bench/results/2026-11-26-fuzz.md): the declared sizes are checked here
// first, and CBFlib decodes in a child process.
DetectorImage read_cbf(const std::string& file, std::vector<unsigned char>& bytes, const DetectorReadOptions& options) {
  check_single_frame(file, options);
  check_cbf_binary_sections(file, bytes);
  return read_contained(file, "CBFlib", options, [&] { return decode_cbf(file, bytes, options); });
}

}  // namespace nanoscatter::detector
