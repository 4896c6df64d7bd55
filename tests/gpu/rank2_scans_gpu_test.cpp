// Scans and arg reductions along each axis of rank-2 tiles on the GPU, against the interpreter
// running the same kernels (kernels/rank2_scans.cpp) on the same inputs: exact for the
// order-sensitive integer scans and for indices, within rounding for float sums and products
// (the GPU combines in a tree). Shapes are not multiples of the block; layouts include rows
// that repeat across threads, rows spread over several warps and narrow rows. Outputs are
// poisoned on both sides, so an element one side writes and the other does not differs.
#include "gpu_test_support.h"
#include "rank2_scans.tilec.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/rank2_scans.cpp"
} // namespace host

namespace {

using tilec_test::expect_close;
using tilec_test::Mirror;
using tilec_test::poisoned;

template <int BM, int BN, bool REV> void check_float_scans(int m, int n, int num_warps) {
  SCOPED_TRACE(testing::Message() << "float_scans<" << BM << ", " << BN << ", " << REV
                                  << "> m=" << m << " n=" << n << " warps=" << num_warps);
  const int stride = n + 5, blocks = (m + BM - 1) / BM;
  std::mt19937 rng(m * 131 + n);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  std::vector<float> x(size_t(m) * stride);
  for (float &v : x)
    v = dist(rng);
  auto row_sum = poisoned<float>(size_t(m) * n), col_sum = row_sum, col_prod = row_sum;
  auto first = poisoned<float>(size_t(blocks) * n);
  Mirror<float> dx(x), drow(row_sum), dcol(col_sum), dprod(col_prod), dfirst(first);
  tilec::interpret::launch(host::float_scans<BM, BN, REV>, tilec::Grid{uint32_t(blocks)}, x.data(),
                           row_sum.data(), col_sum.data(), col_prod.data(), first.data(), m, n,
                           stride);
  float_scans<BM, BN, REV>(tilec::Grid{uint32_t(blocks)}, nullptr, dx.ptr(), drow.ptr(), dcol.ptr(),
                           dprod.ptr(), dfirst.ptr(), m, n, stride, {.num_warps = num_warps});
  tilec_test::synchronize();
  expect_close(drow.get(), row_sum, 1e-4, 1e-4, "cumsum<1>");
  expect_close(dcol.get(), col_sum, 1e-4, 1e-4, "cumsum<0>");
  expect_close(dprod.get(), col_prod, 1e-4, 2e-4, "cumprod<0, true>");
  expect_close(dfirst.get(), first, 1e-4, 1e-4, "cumsum<1> of a [1, BN] tile");
}

TEST(GpuRank2Scans, FloatSumsAndProducts) {
  REQUIRE_GPU();
  check_float_scans<32, 128, false>(100, 100, 4);  // rows over lanes, warps down the columns
  check_float_scans<64, 256, true>(130, 256, 8);   // warps along rows and down columns
  check_float_scans<4, 64, true>(37, 61, 4);       // rows repeat across threads
  check_float_scans<16, 1024, false>(40, 1000, 8); // a row spans 8 warps
  check_float_scans<128, 16, true>(300, 13, 4);    // narrow rows, several rows per thread
  check_float_scans<8, 4, false>(9, 3, 1);
}

template <int BM, int BN> void check_ordered_scans(int m, int n, int num_warps) {
  SCOPED_TRACE(testing::Message() << "ordered_scans<" << BM << ", " << BN << "> m=" << m
                                  << " n=" << n << " warps=" << num_warps);
  std::mt19937 rng(m * 7 + n);
  std::vector<uint32_t> x(size_t(m) * n);
  for (uint32_t &v : x)
    v = ((rng() | 1u) << 16) | (rng() & 0xffffu); // odd a: invertible maps
  auto rows = poisoned<uint32_t>(x.size()), back = rows, cols = rows;
  Mirror<uint32_t> dx(x), drows(rows), dback(back), dcols(cols);
  const uint32_t blocks = uint32_t((m + BM - 1) / BM);
  tilec::interpret::launch(host::ordered_scans<BM, BN>, tilec::Grid{blocks}, x.data(), rows.data(),
                           back.data(), cols.data(), m, n);
  ordered_scans<BM, BN>(tilec::Grid{blocks}, nullptr, dx.ptr(), drows.ptr(), dback.ptr(),
                        dcols.ptr(), m, n, {.num_warps = num_warps});
  tilec_test::synchronize();
  EXPECT_EQ(drows.get(), rows) << "associative_scan<1>";
  EXPECT_EQ(dback.get(), back) << "associative_scan<1, true>";
  EXPECT_EQ(dcols.get(), cols) << "associative_scan<0, true>";
}

TEST(GpuRank2Scans, OrderSensitiveCombine) {
  REQUIRE_GPU();
  check_ordered_scans<32, 128>(100, 100, 4);
  check_ordered_scans<64, 256>(130, 250, 8);
  check_ordered_scans<4, 64>(37, 61, 4);
  check_ordered_scans<16, 1024>(40, 1000, 8); // runs of one element (rows not 16-byte aligned)
  check_ordered_scans<16, 1024>(40, 1024, 8); // runs of four
  check_ordered_scans<128, 16>(300, 13, 4);
  check_ordered_scans<2, 8>(5, 8, 1);
}

/// An m x n matrix of few distinct values (ties everywhere), NaNs, signed zeros and an all-NaN
/// row: what arg reductions must order consistently.
template <class T> std::vector<T> ties_nans_and_zeros(int m, int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<T> x(size_t(m) * n);
  for (size_t i = 0; i < x.size(); ++i) {
    const int r = int(rng() % 9);
    x[i] = T(r == 7 ? NAN : r == 8 ? -0.0f : float(r) - 3.0f);
  }
  for (int c = 0; c < n; ++c)
    x[size_t(m / 2) * n + c] = T(NAN);
  return x;
}

template <class T, int BM, int BN> void check_arg_reductions(int m, int n, int num_warps) {
  SCOPED_TRACE(testing::Message() << "arg_reductions<" << BM << ", " << BN << "> m=" << m
                                  << " n=" << n << " warps=" << num_warps);
  // And an all-NaN column.
  std::vector<T> x = ties_nans_and_zeros<T>(m, n, unsigned(m * 3 + n));
  for (int r = 0; r < m; ++r)
    x[size_t(r) * n + n / 3] = T(NAN);
  const uint32_t blocks = uint32_t((m + BM - 1) / BM);
  auto row_max = poisoned<int>(size_t(m)), row_min = row_max;
  auto col_max = poisoned<int>(size_t(blocks) * n), col_min = col_max;
  Mirror<T> dx(x);
  Mirror<int> drmax(row_max), drmin(row_min), dcmax(col_max), dcmin(col_min);
  tilec::interpret::launch(host::arg_reductions<T, BM, BN>, tilec::Grid{blocks}, x.data(),
                           row_max.data(), row_min.data(), col_max.data(), col_min.data(), m, n);
  arg_reductions<T, BM, BN>(tilec::Grid{blocks}, nullptr, dx.ptr(), drmax.ptr(), drmin.ptr(),
                            dcmax.ptr(), dcmin.ptr(), m, n, {.num_warps = num_warps});
  tilec_test::synchronize();
  EXPECT_EQ(drmax.get(), row_max) << "argmax<1>";
  EXPECT_EQ(drmin.get(), row_min) << "argmin<1>";
  EXPECT_EQ(dcmax.get(), col_max) << "argmax<0>";
  EXPECT_EQ(dcmin.get(), col_min) << "argmin<0, true>";
}

TEST(GpuRank2Scans, ArgReductionsTiesAndNaN) {
  REQUIRE_GPU();
  check_arg_reductions<float, 32, 128>(100, 100, 4);
  check_arg_reductions<float, 64, 256>(130, 250, 8);
  check_arg_reductions<float, 4, 64>(37, 61, 4);
  check_arg_reductions<tl::half, 16, 1024>(40, 1000, 8);
  check_arg_reductions<tl::half, 128, 16>(300, 13, 4);
}

/// Equal as numbers: NaN matches NaN, and -0 matches +0 (the winner among tied zeros is the
/// first one, where a separate reduction may keep either).
template <class T> bool same_number(T a, T b) {
  const float x = float(a), y = float(b);
  return (x != x && y != y) || x == y;
}

template <class T, int BM, int BN> void check_row_extremes(int m, int n, int num_warps) {
  SCOPED_TRACE(testing::Message() << "row_extremes<" << BM << ", " << BN << "> m=" << m
                                  << " n=" << n << " warps=" << num_warps);
  const std::vector<T> x = ties_nans_and_zeros<T>(m, n, unsigned(m * 5 + n));
  const uint32_t blocks = uint32_t((m + BM - 1) / BM);
  auto max_value = poisoned<T>(size_t(m)), min_value = max_value;
  auto max_index = poisoned<int>(size_t(m)), min_index = max_index;
  Mirror<T> dx(x), dmaxv(max_value), dminv(min_value);
  Mirror<int> dmaxi(max_index), dmini(min_index);
  tilec::interpret::launch(host::row_extremes<T, BM, BN>, tilec::Grid{blocks}, x.data(),
                           max_value.data(), max_index.data(), min_value.data(), min_index.data(),
                           m, n);
  row_extremes<T, BM, BN>(tilec::Grid{blocks}, nullptr, dx.ptr(), dmaxv.ptr(), dmaxi.ptr(),
                          dminv.ptr(), dmini.ptr(), m, n, {.num_warps = num_warps});
  tilec_test::synchronize();
  EXPECT_EQ(dmaxi.get(), max_index) << "argmax<1>";
  EXPECT_EQ(dmini.get(), min_index) << "argmin<1>";
  const std::vector<T> gmax = dmaxv.get(), gmin = dminv.get();
  for (int r = 0; r < m; ++r) {
    EXPECT_TRUE(same_number(gmax[r], max_value[r])) << "max<1> of row " << r;
    EXPECT_TRUE(same_number(gmin[r], min_value[r])) << "min<1> of row " << r;
  }
}

TEST(GpuRank2Scans, ExtremesWithTheirIndicesFromOneReduction) {
  REQUIRE_GPU();
  check_row_extremes<float, 32, 128>(100, 100, 4);
  check_row_extremes<float, 4, 1024>(37, 1000, 4);
  check_row_extremes<tl::half, 16, 256>(40, 250, 8);
  check_row_extremes<tl::half, 128, 16>(300, 13, 4);
}

TEST(GpuRank2Scans, PromotedMaxWithItsIndexFromOneReduction) {
  REQUIRE_GPU();
  constexpr int m = 70, n = 200, BM = 8, BN = 256;
  std::mt19937 rng(11);
  std::vector<tl::half> x(size_t(m) * n);
  for (auto &v : x)
    v = tl::half(float(int(rng() % 2001) - 1000) / 7.0f);
  for (int c = 0; c < n; ++c)
    x[size_t(m / 3) * n + c] = tl::half(NAN);
  const uint32_t blocks = uint32_t((m + BM - 1) / BM);
  auto max_value = poisoned<float>(size_t(m));
  auto max_index = poisoned<int>(size_t(m));
  Mirror<tl::half> dx(x);
  Mirror<float> dvalue(max_value);
  Mirror<int> dindex(max_index);
  tilec::interpret::launch(host::half_row_max<BM, BN>, tilec::Grid{blocks}, x.data(),
                           max_value.data(), max_index.data(), m, n);
  half_row_max<BM, BN>(tilec::Grid{blocks}, nullptr, dx.ptr(), dvalue.ptr(), dindex.ptr(), m, n,
                       {.num_warps = 4});
  tilec_test::synchronize();
  EXPECT_EQ(dindex.get(), max_index);
  const std::vector<float> got = dvalue.get();
  for (int r = 0; r < m; ++r)
    EXPECT_TRUE(same_number(got[r], max_value[r])) << "row " << r;
}

} // namespace
