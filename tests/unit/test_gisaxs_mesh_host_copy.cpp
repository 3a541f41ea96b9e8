// Host side of the CUDA mesh hyperblocks (src/gisaxs/mesh/mesh_host_copy.hpp):
// packing q for the upload and unpacking F, on sizes above the OpenMP
// threshold. The reference is the element-wise definition (exact copies: no
// tolerance); points below q_min and q = 0 must keep their old values.
#include <gtest/gtest.h>

#include <vector>

#include "gisaxs/mesh/mesh_host_copy.hpp"

using namespace nanoscatter;
using namespace nanoscatter::gisaxs;
using namespace nanoscatter::gisaxs::mesh;

namespace {

std::vector<Vec3> some_q(std::size_t n) {
  std::vector<Vec3> q(n);
  for (std::size_t j = 0; j < n; ++j) q[j] = {1e-3 * double(j % 977), -2e-3 * double(j % 131), 0.5 * double(j % 3)};
  q[0] = {0, 0, 0};
  return q;
}

}  // namespace

TEST(GisaxsMeshHostCopy, PackIsInterleavedXyz) {
  const auto q = some_q(200000);
  std::vector<double> xyz(3 * q.size(), -1);
  pack_q(q, xyz.data());
  for (std::size_t j = 0; j < q.size(); ++j) {
    ASSERT_EQ(xyz[3 * j], q[j].x) << j;
    ASSERT_EQ(xyz[3 * j + 1], q[j].y) << j;
    ASSERT_EQ(xyz[3 * j + 2], q[j].z) << j;
  }
}

TEST(GisaxsMeshHostCopy, UnpackWritesOnlyComputedPoints) {
  const auto q = some_q(200000);
  const double q_min = 0.3;
  std::vector<double> f(2 * q.size());
  for (std::size_t j = 0; j < f.size(); ++j) f[j] = double(j) + 0.25;
  const Complex untouched(-7, 7);
  std::vector<Complex> out(q.size(), untouched);
  unpack_f(f.data(), q, q_min, out);
  std::size_t written = 0, kept = 0;
  for (std::size_t j = 0; j < q.size(); ++j) {
    const double q2 = dot(q[j], q[j]);
    if (q2 >= q_min * q_min && q2 > 0) {
      ASSERT_EQ(out[j], Complex(f[2 * j], f[2 * j + 1])) << j;
      ++written;
    } else {
      ASSERT_EQ(out[j], untouched) << j;
      ++kept;
    }
  }
  EXPECT_GT(written, 0u);  // both kinds occur, so neither branch is vacuous
  EXPECT_GT(kept, 1u);
}
