// GISAXS sample TOML: the text is parsed and checked as a sample file is.
#include "harness.hpp"
#include "nanoscatter/gisaxs_sample_document.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = nanoscatter::fuzz::as_text(data, size);
  nanoscatter::fuzz::expect_read_or_refused([&] { nanoscatter::gisaxs::SampleDocument::parse(text, "fuzz.toml"); });
  return 0;
}
