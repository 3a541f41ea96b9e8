// A fixture for the mesh-file reader tests (OBJ, STL): files written into a
// temporary folder with the reader's extension, and the error for a file
// checked to be one line starting "path:line: field: " ("path: field: "
// for line 0).
#pragma once
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "nanoscatter/error.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"
#include "test_util.hpp"

namespace nanoscatter::test {

class MeshFileTest : public ::testing::Test {
 protected:
  MeshFileTest(const char* folder, const char* extension) : dir(folder), extension_(extension) {}

  TempDir dir;

  std::string write(const std::string& bytes) {
    const std::string path = (dir / ("m" + std::to_string(files_++) + extension_)).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  gisaxs::TriangleMesh read(const std::string& bytes) { return gisaxs::read_mesh(write(bytes)); }

  std::string error(const std::string& bytes, int line, const std::string& field) {
    const std::string path = write(bytes);
    try {
      gisaxs::read_mesh(path);
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      const std::string prefix = path + ":" + (line > 0 ? std::to_string(line) + ":" : "") + " " + field + ": ";
      EXPECT_EQ(message.rfind(prefix, 0), 0u) << message << "\n  expected to start with: " << prefix;
      return message;
    }
    ADD_FAILURE() << "no error for:\n" << bytes;
    return "";
  }

 private:
  std::string extension_;
  int files_ = 0;
};

}  // namespace nanoscatter::test
