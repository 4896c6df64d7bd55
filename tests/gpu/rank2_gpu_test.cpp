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

} // namespace
