// Every Error is one line (issue 25): messages quote input that may hold
// newlines or control characters (a CIF text field, toml++'s own message),
// and the CLI promises a one-line "nanoscatter: error: ..." for each.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "nanoscatter/config.hpp"
#include "nanoscatter/detector_image.hpp"
#include "nanoscatter/error.hpp"
#include "test_util.hpp"

namespace nanoscatter {
namespace {

TEST(ErrorOneLine, BreaksJoinAndControlCharactersAreEscaped) {
  // A line break (with the white space around it) becomes "; "; other
  // control characters are written as \xNN; a tab stays.
  const Error e(Where{"a\nb.xyz", 3, "fi\x01" "eld"}, "value 'x\r\ny\x7f'\tend\n");
  EXPECT_STREQ(e.what(), "a; b.xyz:3: fi\\x01eld: value 'x; y\\x7f'\tend");
  EXPECT_EQ(e.reason(), "value 'x; y\\x7f'\tend");
}

TEST(ErrorOneLine, TomlParserMessageIsOneLine) {
  // toml++ ends its message for a misspelt boolean with a raw newline.
  try {
    parse_config("density = tr\n", "sample.toml");
    FAIL() << "a misspelt boolean was accepted";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind("sample.toml", 0), 0u) << message;
  }
}

TEST(ErrorOneLine, EmptyTiffIsRefused) {
  // An empty file made the TIFF reader pass a null buffer to memcpy (UBSan,
  // found by fuzz/ detector_tiff); it must be a plain refusal.
  test::TempDir dir("error-one-line");
  const std::filesystem::path path = dir / "empty.tif";
  std::ofstream(path).close();
  EXPECT_THROW(read_detector_image(path.string()), Error);
}

}  // namespace
}  // namespace nanoscatter
