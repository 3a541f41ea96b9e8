// What produced an output file, written into every file an engine writes
// (text headers, HDF5 attributes, PNG text entries): one record for all
// engines and front ends. The CLI fills `command` with its command line,
// Python with the call ("python: script.py"), so the files of both say the
// same things in the same places.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace nanoscatter {

// "0.1.0": the library's version.
const char* library_version();

struct RunRecord {
  std::string engine;              // "debye", "pattern2d", ...
  std::string command;             // how the run was started
  std::vector<std::string> lines;  // what the engine says about the run: model, method, device, time

  // The first line (the engine's one-line summary, `title`), "command: …",
  // "version: nanoscatter …", then `lines`: what text headers and HDF5
  // attributes hold, in this order.
  std::vector<std::string> header_lines(const std::string& title) const;
};

// Header lines as PNG text entries, nanoscatter:header_0, _1, ... (the
// HDF5 files' header_0, _1, ... attributes hold the same lines).
std::vector<std::pair<std::string, std::string>> png_header_entries(const std::vector<std::string>& lines);

}  // namespace nanoscatter
