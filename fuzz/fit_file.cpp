// Fit description TOML (nanoscatter fit): parsed and checked, nothing read
// from the files it names.
#include "harness.hpp"
#include "nanoscatter/fit_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = nanoscatter::fuzz::as_text(data, size);
  nanoscatter::fuzz::expect_read_or_refused(
      [&] { nanoscatter::fit::parse_fit_description(text, "fuzz.toml", "."); });
  return 0;
}
