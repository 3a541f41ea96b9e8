// Memory sizes on the command line: "512M", "2G", "1.5GiB", "1048576"
// (bytes), for options such as --max-device-memory.
#pragma once
#include <cstddef>
#include <string>

namespace nanoscatter::cli {

// The size in bytes (0 allowed: the option's default meaning); an Error
// naming the option field `field` (printed as its flag) otherwise.
std::size_t parse_memory_size(const std::string& text, const char* field);

}  // namespace nanoscatter::cli
