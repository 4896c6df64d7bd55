// tl::join on the GPU: out[2i] = x[i], out[2i + 1] = y[i] for i < n (n not a multiple of the
// block, the rest of out poisoned), then out[2n], out[2n + 1] = 1.5, 2.5.
#include "device_buffer.h"
#include "gpu_test_support.h"
#include "join.tilec.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/join.cpp"
} // namespace host

namespace {

TEST(GpuJoin, InterleavesTwoTilesAndTwoScalars) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  constexpr int B = 128;
  const int n = 1000;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = d(rng), y[i] = d(rng);
  const int programs = (n + B - 1) / B;
  tilec_test::DeviceBuffer dx(n * 4), dy(n * 4), dout((2 * programs * B + 2) * 4);
  dx.upload(x), dy.upload(y);
  dout.fill(0xff);
  joined<B>(tilec::Grid{uint32_t(programs)}, nullptr, dx.as<float>(), dy.as<float>(),
            dout.as<float>(), n, {.num_warps = 4});
  tilec_test::synchronize();
  std::vector<float> out = dout.download<float>();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(out[2 * i], x[i]) << "x at " << i;
    ASSERT_EQ(out[2 * i + 1], y[i]) << "y at " << i;
  }
  EXPECT_EQ(out[2 * n], 1.5f);
  EXPECT_EQ(out[2 * n + 1], 2.5f);
  for (size_t i = 2 * n + 2; i < out.size(); ++i)
    ASSERT_TRUE(std::isnan(out[i])) << "written past the end at " << i;
}

// tl::interleave, tl::cat and tl::ravel against the interpreter, bit for bit (copies and
// doublings), with n below the block so that the masks' `other` values show.
TEST(GpuJoin, InterleaveCatAndRavel) {
  REQUIRE_GPU();
  constexpr int B = 128;
  const int n = 100;
  std::vector<float> x(B), y(B);
  for (int i = 0; i < B; ++i)
    x[i] = float(i) / 8, y[i] = -float(i) / 4;
  auto out = tilec_test::poisoned<float>(6 * B + 4);
  auto want = out;
  tilec_test::Mirror<float> dx(x), dy(y), dout(out);
  tilec::interpret::launch(host::interleaved<B>, tilec::Grid{1}, x.data(), y.data(), want.data(),
                           n);
  interleaved<B>(tilec::Grid{1}, nullptr, dx.ptr(), dy.ptr(), dout.ptr(), n, {.num_warps = 4});
  tilec_test::synchronize();
  tilec_test::expect_same_bits(dout.get(), want, "out");
  EXPECT_EQ(want[1], y[0]);         // interleave: a[0], b[0], ...
  EXPECT_EQ(want[2 * B], y[0]);     // cat(b, a) interleaves too
  EXPECT_EQ(want[4 * B + 1], 0.0f); // [0][0] doubled
}

} // namespace
