// Reference values from python3-periodictable, computed at test time by
// tools/periodictable_spot_values.py under Debian's /usr/bin/python3.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace nanoscatter::test {

inline bool have_system_python() { return std::filesystem::exists(NS_SYSTEM_PYTHON); }

// A number as text that parses back to the same double in Python.
inline std::string exact_text(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

// Request → values (see the script's docstring for the request syntax). All
// requests go to one Python process. Adds a test failure when the script fails.
inline std::map<std::string, std::vector<double>> periodictable_values(
    const std::vector<std::string>& requests) {
  const std::string script = std::string(NS_TEST_DATA_DIR) + "/../../tools/periodictable_spot_values.py";
  std::string command = std::string(NS_SYSTEM_PYTHON) + " " + script;
  for (const auto& r : requests) command += " '" + r + "'";
  const auto result = run_command(command);
  std::map<std::string, std::vector<double>> values;
  EXPECT_EQ(result.exit_code, 0) << command << "\n" << result.output;
  std::istringstream lines(result.output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string request, number;
    words >> request;
    while (words >> number) values[request].push_back(std::strtod(number.c_str(), nullptr));
  }
  for (const auto& r : requests) EXPECT_TRUE(values.count(r)) << "no answer for " << r << "\n" << result.output;
  return values;
}

}  // namespace nanoscatter::test
