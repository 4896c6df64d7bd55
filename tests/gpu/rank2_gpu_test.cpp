// Rank-2 tiles on the GPU against a CPU reference, at shapes that are not multiples of the
// block and with layouts where rows repeat across threads (BM smaller than the rows a pass
// of the block covers).
#include "device_buffer.h"
#include "rank2.tilec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

template <int BM, int BN> void check(int m, int n, int num_warps) {
  std::mt19937 rng(m * 7919 + n);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const int stride = n + 3;
  std::vector<float> x(size_t(m) * stride);
  for (float &v : x)
    v = dist(rng);
  const int blocks = (m + BM - 1) / BM;
  tilec_test::DeviceBuffer dx(x.size() * sizeof(float));
  tilec_test::DeviceBuffer dsum(size_t(m) * sizeof(float));
  tilec_test::DeviceBuffer dmax(size_t(blocks) * n * sizeof(float));
  dx.upload(x);
  dsum.fill(0xff); // NaN: every element must be written
  dmax.fill(0xff);
  row_sums_col_max<BM, BN>(tilec::Grid{uint32_t(blocks)}, nullptr, dx.as<float>(), dsum.as<float>(),
                           dmax.as<float>(), m, n, stride, {.num_warps = num_warps});
  tilec_test::synchronize();
  std::vector<float> sums = dsum.download<float>(), maxes = dmax.download<float>();
  std::vector<double> ref(m);
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < n; ++c)
      ref[r] += x[size_t(r) * stride + c];
    ASSERT_NEAR(sums[r], ref[r], 1e-4 * (1 + std::fabs(ref[r])))
        << "row " << r << " m=" << m << " n=" << n << " warps=" << num_warps;
  }
  for (int b = 0; b < blocks; ++b)
    for (int c = 0; c < n; ++c) {
      double best = -INFINITY;
      for (int r = b * BM; r < std::min(m, b * BM + BM); ++r)
        best = std::max(best, double(x[size_t(r) * stride + c]) - ref[r]);
      ASSERT_NEAR(maxes[size_t(b) * n + c], best, 1e-4 * (1 + std::fabs(best)))
          << "block " << b << " col " << c << " m=" << m << " n=" << n;
    }
}

TEST(GpuRank2, RowSumsAndColumnMaxima) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  check<32, 128>(1000, 100, 4);  // rows split over warps, columns over lanes
  check<64, 256>(77, 256, 8);    // warps along rows too (W1 > 1)
  check<4, 64>(37, 61, 4);       // rows repeat across threads (4 < rows per pass)
  check<16, 1024>(50, 1000, 16); // wide rows
}

template <int B> void check_grid_index(int num_warps) {
  tilec_test::DeviceBuffer dout(sizeof(int) * B * B);
  tilec_test::DeviceBuffer dtotal(sizeof(float));
  dout.fill(0xff);
  dtotal.fill(0xff);
  grid_index<B>(tilec::Grid{1}, nullptr, dout.as<int>(), dtotal.as<float>(),
                {.num_warps = num_warps});
  tilec_test::synchronize();
  std::vector<int> out = dout.download<int>();
  double total = 0;
  for (int r = 0; r < B; ++r)
    for (int c = 0; c < B; ++c) {
      ASSERT_EQ(out[size_t(r) * B + c], r * 1000 + c) << "B=" << B << " r=" << r << " c=" << c;
      total += r * 1000 + c;
    }
  EXPECT_NEAR(dtotal.download<float>()[0], total, 1e-5 * total) << "B=" << B;
}

TEST(GpuRank2, LayoutConversionAndSliceReduction) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  check_grid_index<16>(4);
  check_grid_index<64>(4);
  check_grid_index<128>(8);
}

template <int BM, int BN> void check_transpose(int m, int n, int num_warps) {
  std::mt19937 rng(m + 31 * n);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(size_t(m) * n);
  for (float &v : x)
    v = dist(rng);
  const int gm = (m + BM - 1) / BM, gn = (n + BN - 1) / BN;
  tilec_test::DeviceBuffer dx(x.size() * sizeof(float)), dout(x.size() * sizeof(float));
  tilec_test::DeviceBuffer dflat(size_t(gm) * gn * BM * BN * sizeof(float));
  dx.upload(x);
  dout.fill(0xff);
  dflat.fill(0xff);
  transpose_block<BM, BN>(tilec::Grid{uint32_t(gm), uint32_t(gn)}, nullptr, dx.as<float>(),
                          dout.as<float>(), dflat.as<float>(), m, n, {.num_warps = num_warps});
  tilec_test::synchronize();
  std::vector<float> out = dout.download<float>(), flat = dflat.download<float>();
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c)
      ASSERT_EQ(out[size_t(c) * m + r], x[size_t(r) * n + c]) << "r=" << r << " c=" << c;
  for (int pr = 0; pr < gm; ++pr)
    for (int pc = 0; pc < gn; ++pc)
      for (int k = 0; k < BM * BN; ++k) {
        int r = pr * BM + k / BN, c = pc * BN + k % BN;
        float want = r < m && c < n ? x[size_t(r) * n + c] : 0.0f;
        ASSERT_EQ(flat[(size_t(pr) * gn + pc) * BM * BN + k], want) << "block " << pr << "," << pc;
      }
}

TEST(GpuRank2, TransposeAndReshape) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  check_transpose<32, 64>(100, 77, 4);
  check_transpose<16, 16>(33, 50, 4); // rows repeat across threads
  check_transpose<64, 32>(64, 64, 8);
}

template <int BM, int BN> void check_whole_block(int m, int n, int num_warps) {
  std::mt19937 rng(m * 131 + n);
  std::uniform_real_distribution<float> dist(-4.0f, -1.0f); // all negative: padding matters
  std::uniform_int_distribution<int> bits_dist(0, 1 << 20);
  std::vector<float> x(size_t(m) * n);
  std::vector<int> bits(x.size());
  for (float &v : x)
    v = dist(rng);
  for (int &v : bits)
    v = bits_dist(rng);
  tilec_test::DeviceBuffer dx(x.size() * sizeof(float)), dbits(bits.size() * sizeof(int));
  tilec_test::DeviceBuffer dout(2 * sizeof(float)), diout(4 * sizeof(int));
  tilec_test::DeviceBuffer dshifted(sizeof(float) * BM * BN);
  dx.upload(x);
  dbits.upload(bits);
  dout.fill(0xff);
  diout.fill(0xff);
  dshifted.fill(0xff);
  whole_block<BM, BN>(tilec::Grid{1}, nullptr, dx.as<float>(), dbits.as<int>(), dout.as<float>(),
                      diout.as<int>(), dshifted.as<float>(), m, n, {.num_warps = num_warps});
  tilec_test::synchronize();
  // The reference over the whole block: loaded elements, then 0 (v) or -inf (argmax's input).
  double sum = 0, max_abs = 0;
  float lowest = INFINITY, highest = -INFINITY;
  int x_or = 0, b_or = 0, argmax = -1, argmin = -1;
  for (int k = 0; k < BM * BN; ++k) {
    int r = k / BN, c = k % BN;
    bool in = r < m && c < n;
    float v = in ? x[size_t(r) * n + c] : 0.0f;
    float hv = in ? v : -INFINITY;
    int b = in ? bits[size_t(r) * n + c] : 0;
    sum += v;
    max_abs = std::max(max_abs, double(std::fabs(v)));
    x_or ^= b;
    b_or |= b;
    if (argmax < 0 || hv > highest) { // ties: the first index
      highest = hv;
      argmax = k;
    }
    if (v < lowest) {
      lowest = v;
      argmin = k;
    }
  }
  std::vector<float> out = dout.download<float>(), shifted = dshifted.download<float>();
  std::vector<int> iout = diout.download<int>();
  const std::string at = " BM=" + std::to_string(BM) + " BN=" + std::to_string(BN) +
                         " m=" + std::to_string(m) + " n=" + std::to_string(n);
  EXPECT_NEAR(out[0], sum, 1e-4 * (1 + std::fabs(sum))) << at;
  EXPECT_EQ(out[1], float(max_abs)) << at;
  EXPECT_EQ(iout[0], x_or) << at;
  EXPECT_EQ(iout[1], b_or) << at;
  EXPECT_EQ(iout[2], argmax) << at;
  EXPECT_EQ(iout[3], argmin) << at;
  for (int k = 0; k < BM * BN; ++k) {
    int r = k / BN, c = k % BN;
    float v = r < m && c < n ? x[size_t(r) * n + c] : 0.0f;
    ASSERT_EQ(shifted[k], v - lowest) << "k=" << k << at;
  }
}

TEST(GpuRank2, WholeBlockReductions) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  check_whole_block<16, 64>(13, 61, 4);
  check_whole_block<4, 8>(3, 5, 1);      // rows repeat across threads
  check_whole_block<64, 128>(64, 100, 8); // warps along rows
  check_whole_block<8, 256>(8, 256, 4);   // full block: argmax among loaded values only
}

} // namespace
