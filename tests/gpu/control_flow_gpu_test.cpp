// Control flow on the GPU: loop-carried tiles, early return, a scalar carried through an if.
#include "control_flow.tilec.h"
#include "device_buffer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

TEST(GpuControlFlow, RowPartialSums) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  constexpr int kBlock = 256;
  for (int cols : {1, 100, 1000, 4099}) {
    const int rows = 37;
    std::mt19937 rng(cols);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> x(size_t(rows) * cols);
    for (float &v : x)
      v = dist(rng);
    tilec_test::DeviceBuffer dx(x.size() * sizeof(float));
    tilec_test::DeviceBuffer dout(size_t(rows) * kBlock * sizeof(float));
    dx.upload(x);
    dout.fill(0xff); // NaN: every element must be written
    // Three extra program instances exercise the early return.
    row_partial_sums<kBlock>(tilec::Grid{uint32_t(rows + 3)}, nullptr, dx.as<float>(),
                             dout.as<float>(), rows, cols);
    tilec_test::synchronize();
    std::vector<float> out = dout.download<float>();
    const float bias = cols > 100 ? 2.0f : 1.0f;
    for (int r = 0; r < rows; ++r)
      for (int j = 0; j < kBlock; ++j) {
        double ref = 2.0 * bias;
        for (int c = j; c < cols; c += kBlock)
          ref += x[size_t(r) * cols + c];
        float got = out[size_t(r) * kBlock + j];
        ASSERT_TRUE(std::isfinite(got)) << "row " << r << " lane " << j << " cols " << cols;
        ASSERT_NEAR(got, ref, 1e-4 * (1 + std::fabs(ref))) << "row " << r << " lane " << j;
      }
  }
}

// Both copies of a split loop: sizes below, at and past multiples of the block, with and
// without a shift, so that each of the unmasked and masked copies runs alone and together.
TEST(GpuControlFlow, RaggedBlocks) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  constexpr int kBlock = 256;
  for (int n : {1, 255, 256, 257, 1000, 4099})
    for (int shift : {0, 3}) {
      if (shift >= n)
        continue;
      std::mt19937 rng(n * 7 + shift);
      std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
      std::vector<float> x(static_cast<size_t>(n));
      for (float &v : x)
        v = dist(rng);
      tilec_test::DeviceBuffer dx(x.size() * sizeof(float));
      tilec_test::DeviceBuffer dy((size_t(n) + kBlock) * sizeof(float));
      tilec_test::DeviceBuffer dsums(kBlock * sizeof(float));
      dx.upload(x);
      dy.fill(0xff); // NaN: written where it must be, left alone elsewhere
      dsums.fill(0xff);
      ragged_blocks<kBlock>(tilec::Grid{1}, nullptr, dx.as<float>(), dy.as<float>(),
                            dsums.as<float>(), n, shift);
      tilec_test::synchronize();
      std::vector<float> y = dy.download<float>(), sums = dsums.download<float>();
      for (int j = 0; j < kBlock; ++j) {
        double ref = 0;
        for (int c = j; c < n; c += kBlock)
          ref += x[size_t(c)];
        ASSERT_NEAR(sums[size_t(j)], ref, 1e-4 * (1 + std::fabs(ref)))
            << "lane " << j << " n " << n << " shift " << shift;
      }
      for (int j = 0; j < n + kBlock; ++j) {
        if (j < n - shift)
          ASSERT_EQ(y[size_t(j)], 2.0f * x[size_t(j + shift)])
              << "y[" << j << "] n " << n << " shift " << shift;
        else
          ASSERT_TRUE(std::isnan(y[size_t(j)])) << "y[" << j << "] written, n " << n;
      }
    }
}

} // namespace
