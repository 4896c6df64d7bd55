// The kernels of the GPU tests for rank-2 scans and arg reductions
// (tests/gpu/kernels/rank2_scans.cpp), run in the interpreter and checked against plain
// loops. The GPU tests compare the GPU with the interpreter, so this keeps that reference
// honest.
#include "support.h"

#include "rank2_scans.cpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

constexpr int BM = 8, BN = 32, M = 21, N = 27; // three blocks, the last one partial

TEST(Rank2ScanKernels, FloatScans) {
  const int stride = N + 2, blocks = (M + BM - 1) / BM;
  std::vector<float> x(size_t(M) * stride);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i * 7 % 11) - 5) / 8; // exact in float: sums and products are exact
  std::vector<float> row_sum(M * N, NAN), col_sum(M * N, NAN), col_prod(M * N, NAN);
  std::vector<float> first(blocks * N, NAN);
  tilec::interpret::launch(float_scans<BM, BN, true>, tilec::Grid{uint32_t(blocks)}, x.data(),
                           row_sum.data(), col_sum.data(), col_prod.data(), first.data(), M, N,
                           stride);
  auto at = [&](int r, int c) { return x[size_t(r) * stride + c]; };
  for (int r = 0; r < M; ++r) {
    const int block_end = std::min(M, (r / BM + 1) * BM);
    for (int c = 0; c < N; ++c) {
      double s = 0, up = 0, prod = 1;
      for (int k = 0; k <= c; ++k)
        s += at(r, k);
      for (int k = r; k < block_end; ++k) { // REV: from the block's last row up to r
        up += at(k, c);
        prod *= 1 + at(k, c);
      }
      EXPECT_FLOAT_EQ(row_sum[r * N + c], float(s)) << r << "," << c;
      EXPECT_FLOAT_EQ(col_sum[r * N + c], float(up)) << r << "," << c;
      EXPECT_NEAR(col_prod[r * N + c], prod, 2e-6 * std::fabs(prod)) << r << "," << c;
    }
  }
  for (int b = 0; b < blocks; ++b) {
    double s = 0;
    for (int c = 0; c < N; ++c) {
      s += at(b * BM, c);
      EXPECT_FLOAT_EQ(first[b * N + c], float(s)) << "block " << b << " column " << c;
    }
  }
}

uint32_t compose_ref(uint32_t f, uint32_t g) { // g(f(x)) for x -> a * x + b mod 2^16
  const uint32_t a = (g >> 16) * (f >> 16), b = (g >> 16) * (f & 0xffff) + (g & 0xffff);
  return (a & 0xffff) << 16 | (b & 0xffff);
}

TEST(Rank2ScanKernels, OrderedScans) {
  std::mt19937 rng(5);
  std::vector<uint32_t> x(M * N);
  for (uint32_t &v : x)
    v = rng();
  std::vector<uint32_t> rows(M * N, 0), back(M * N, 0), cols(M * N, 0);
  tilec::interpret::launch(ordered_scans<BM, BN>, tilec::Grid{uint32_t((M + BM - 1) / BM)},
                           x.data(), rows.data(), back.data(), cols.data(), M, N);
  for (int r = 0; r < M; ++r) {
    const int block_end = std::min(M, (r / BM + 1) * BM);
    for (int c = 0; c < N; ++c) {
      uint32_t along = x[r * N];
      for (int k = 1; k <= c; ++k)
        along = compose_ref(along, x[r * N + k]);
      uint32_t backward = x[r * N + N - 1];
      for (int k = N - 2; k >= c; --k)
        backward = compose_ref(backward, x[r * N + k]);
      uint32_t up = x[(block_end - 1) * N + c];
      for (int k = block_end - 2; k >= r; --k)
        up = compose_ref(up, x[k * N + c]);
      EXPECT_EQ(rows[r * N + c], along) << r << "," << c;
      EXPECT_EQ(back[r * N + c], backward) << r << "," << c;
      EXPECT_EQ(cols[r * N + c], up) << r << "," << c;
    }
  }
}

/// The index of the best of v[0], v[step], ... (count of them): NaNs skipped, ties to the
/// first, 0 when all are NaN.
int arg_ref(const float *v, int count, int step, bool max) {
  int best = -1;
  for (int k = 0; k < count; ++k) {
    const float x = v[k * step];
    if (std::isnan(x))
      continue;
    if (best < 0 || (max ? x > v[best * step] : x < v[best * step]))
      best = k;
  }
  return best < 0 ? 0 : best;
}

TEST(Rank2ScanKernels, ArgReductions) {
  std::mt19937 rng(9);
  std::vector<float> x(M * N);
  for (float &v : x) {
    const int r = int(rng() % 8);
    v = r == 7 ? NAN : float(r % 4) - (r == 6 ? 0.0f : 1.0f);
  }
  for (int c = 0; c < N; ++c)
    x[4 * N + c] = NAN; // an all-NaN row
  const int blocks = (M + BM - 1) / BM;
  std::vector<int> row_max(M, -7), row_min(M, -7), col_max(blocks * N, -7), col_min(blocks * N, -7);
  tilec::interpret::launch(arg_reductions<float, BM, BN>, tilec::Grid{uint32_t(blocks)}, x.data(),
                           row_max.data(), row_min.data(), col_max.data(), col_min.data(), M, N);
  for (int r = 0; r < M; ++r) {
    EXPECT_EQ(row_max[r], arg_ref(&x[r * N], N, 1, true)) << "row " << r;
    EXPECT_EQ(row_min[r], arg_ref(&x[r * N], N, 1, false)) << "row " << r;
  }
  for (int b = 0; b < blocks; ++b)
    for (int c = 0; c < N; ++c) {
      const int rows = std::min(BM, M - b * BM);
      EXPECT_EQ(col_max[b * N + c], arg_ref(&x[b * BM * N + c], rows, N, true)) << b << "," << c;
      EXPECT_EQ(col_min[b * N + c], arg_ref(&x[b * BM * N + c], rows, N, false)) << b << "," << c;
    }
}

} // namespace
