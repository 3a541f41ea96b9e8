// XYZ / extended XYZ, PDB and CIF readers: read_structure dispatches on the
// extension the build gives (fuzz/CMakeLists.txt), as the CLI's --input does.
#include "harness.hpp"
#include "nanoscatter/structure_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = nanoscatter::fuzz::input_file(data, size, NANOSCATTER_FUZZ_EXTENSION);
  nanoscatter::fuzz::expect_read_or_refused([&] { nanoscatter::read_structure(path); });
  return 0;
}
