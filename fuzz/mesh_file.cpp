// Particle meshes for GISAXS (STL and OBJ through our own readers),
// chosen by the extension the build gives (fuzz/CMakeLists.txt).
#include "harness.hpp"
#include "nanoscatter/gisaxs_mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = nanoscatter::fuzz::input_file(data, size, NANOSCATTER_FUZZ_EXTENSION);
  nanoscatter::fuzz::expect_read_or_refused([&] { nanoscatter::gisaxs::read_mesh(path); });
  return 0;
}
