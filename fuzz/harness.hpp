// What every libFuzzer harness shares: the input bytes as a file, for the
// readers that take a path, and the check that a refused input is refused
// the way the CLI promises (an Error with a one-line, non-empty message).
// Anything else (a crash, a sanitizer report, another exception type, a
// multi-line message) aborts, which libFuzzer records as a finding.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "nanoscatter/error.hpp"

namespace nanoscatter::fuzz {

// One folder per process (libFuzzer's -jobs/-fork run several), in memory
// where /dev/shm exists, removed when the process exits normally.
class InputFolder {
 public:
  InputFolder() {
    const std::filesystem::path shm = "/dev/shm";
    const std::filesystem::path root = std::filesystem::is_directory(shm) ? shm : std::filesystem::temp_directory_path();
    path_ = root / ("nanoscatter-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~InputFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Writes the bytes to input<extension> (the readers dispatch on the
// extension) and returns its path; the file is rewritten for every input.
inline std::string input_file(const std::uint8_t* data, std::size_t size, const std::string& extension) {
  static const InputFolder folder;
  const std::filesystem::path path = folder.path() / ("input" + extension);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "fuzz harness: cannot write %s\n", path.c_str());
    std::abort();
  }
  return path.string();
}

// As input_file, but under a new name each time (the previous file is
// removed): for a library that recognises a file it still holds open by
// its inode (libhdf5), which a rewrite in place keeps.
inline std::string fresh_input_file(const std::uint8_t* data, std::size_t size, const std::string& extension) {
  static std::uint64_t count = 0;
  static std::string previous;
  if (!previous.empty()) std::remove(previous.c_str());
  previous = input_file(data, size, "-" + std::to_string(count++) + extension);
  return previous;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

[[noreturn]] inline void finding(const char* what, const char* message) {
  std::fprintf(stderr, "fuzz harness: %s: [%s]\n", what, message);
  std::abort();
}

// Runs `read`. An Error is the expected refusal of a bad input, as long as
// its message is one non-empty line (the CLI prints it after
// "nanoscatter: error: "); any other exception would reach the CLI as an
// "internal error" and is a finding.
template <class Read>
void expect_read_or_refused(Read&& read) {
  try {
    read();
  } catch (const Error& e) {
    const std::string_view message = e.what();
    if (e.reason().empty()) finding("empty error message", e.what());
    if (message.find_first_of("\r\n") != std::string_view::npos) finding("multi-line error message", e.what());
  } catch (const std::exception& e) {
    finding("exception other than nanoscatter::Error", e.what());
  }
}

}  // namespace nanoscatter::fuzz
