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

// unit-stride-accesses' three copies of one load and one store: K == 1 with the program's k
// a multiple of 8 (16-byte runs), K == 1 with k not one (contiguous, general copy), K == 3
// (strided). Row widths with and without the DIV16 fact; every element compared bit for bit,
// and the ones not written must keep their poison.
TEST(GpuControlFlow, MiddleAxisCopies) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  const int M = 37;
  for (int N : {1008, 1000})
    for (int K : {1, 3}) {
      const int programs_k = K == 1 ? 9 : K; // k = 0 ... 8 with K == 1: both kinds of k
      const size_t in_size = size_t(M) * N * K + 8, out_size = size_t(programs_k) * M * N * K + 8;
      std::mt19937 rng(uint32_t(N * 10 + K));
      std::uniform_int_distribution<int> dist(-512, 511);
      std::vector<uint16_t> x(in_size);
      for (uint16_t &v : x) // bf16 values exactly doubled: small integers
        v = tl::bfloat16::from_float(float(dist(rng)));
      tilec_test::DeviceBuffer dx(in_size * 2), dout(out_size * 2);
      dx.upload(x);
      dout.fill(0xff);
      middle_axis_copy<4, 256>(tilec::Grid{uint32_t((M + 3) / 4), uint32_t(programs_k)}, nullptr,
                               dx.as<tl::bfloat16>(), dout.as<tl::bfloat16>(), M, N, K);
      tilec_test::synchronize();
      std::vector<uint16_t> want(out_size, 0xffff), got = dout.download<uint16_t>();
      for (int k = 0; k < programs_k; ++k)
        for (int r = 0; r < M; ++r)
          for (int c = 0; c < N; ++c) {
            const uint16_t v = x[(size_t(r) * N + c) * K + k];
            want[((size_t(k) * M + r) * N + c) * K + k] =
                tl::bfloat16::from_float(2.0f * tl::detail::bits_f32(uint32_t(v) << 16));
          }
      for (size_t i = 0; i < out_size; ++i)
        ASSERT_EQ(got[i], want[i]) << "element " << i << " N " << N << " K " << K;
    }
}

} // namespace
