// tl::flip, tl::gather, tl::sort / tl::topk and tl::histogram on the GPU against the
// interpreter running the same kernels (kernels/indexed.cpp), bit for bit: they move or count
// elements, so nothing rounds (the sort's order is total, zeros and NaNs included).
// Outputs start poisoned (0xff bytes: NaN floats, -1 integers), sizes are not multiples of the
// blocks, and each kernel runs at more than one num_warps (replicated and split layouts).
#include "gpu_test_support.h"
#include "indexed.tilec.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/indexed.cpp"
} // namespace host

namespace {

using tilec_test::expect_same_bits;
using tilec_test::Mirror;
using tilec_test::poisoned;
using tilec_test::random_floats;

template <class T> std::vector<T> random_ints(size_t n, long long lo, long long hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<long long> d(lo, hi);
  std::vector<T> v(n);
  for (T &x : v)
    x = T(d(rng));
  return v;
}

template <int B> void check_flip_1d(int n, int warps) {
  SCOPED_TRACE(testing::Message() << "flip_1d<" << B << "> n " << n << " warps " << warps);
  const auto x = random_floats(size_t(n), 1);
  auto want = poisoned<float>(size_t(n) + 64);
  Mirror<float> dx(x), dout(want);
  const tilec::Grid grid{uint32_t((n + B - 1) / B)};
  tilec::interpret::launch(host::flip_1d<B>, grid, x.data(), want.data(), n);
  flip_1d<B>(grid, nullptr, dx.ptr(), dout.ptr(), n, {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(dout.get(), want, "out");
  EXPECT_EQ(want[0], B <= n ? x[B - 1] : -1.0f); // reversed: the test tells a copy from a flip
}

template <int R, int C> void check_flip_2d(int rows, int cols, int warps) {
  SCOPED_TRACE(testing::Message() << "flip_2d<" << R << ", " << C << "> warps " << warps);
  const auto x = random_ints<int>(size_t(rows) * cols, -100, 100, 2);
  const size_t out_size = size_t((rows + R - 1) / R * R) * C + 64;
  auto want_rows = poisoned<int>(out_size), want_cols = poisoned<int>(out_size);
  Mirror<int> dx(x), drows(want_rows), dcols(want_cols);
  const tilec::Grid grid{uint32_t((rows + R - 1) / R)};
  tilec::interpret::launch(host::flip_2d<R, C>, grid, x.data(), want_rows.data(), want_cols.data(),
                           rows, cols);
  flip_2d<R, C>(grid, nullptr, dx.ptr(), drows.ptr(), dcols.ptr(), rows, cols,
                {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(drows.get(), want_rows, "rows flipped");
  expect_same_bits(dcols.get(), want_cols, "columns flipped");
}

TEST(GpuIndexed, Flip) {
  REQUIRE_GPU();
  check_flip_1d<128>(1000, 4);
  check_flip_1d<64>(100, 4); // 64 elements over 128 threads: a replicated layout
  check_flip_1d<1024>(3000, 8);
  check_flip_2d<8, 32>(21, 27, 4);
  check_flip_2d<16, 64>(40, 50, 8);
  check_flip_2d<2, 16>(5, 16, 1);
}

template <int B, class I> void check_gather_1d(int n, int warps) {
  SCOPED_TRACE(testing::Message() << "gather_1d<" << B << "> n " << n << " warps " << warps);
  const auto x = random_floats(size_t(n), 3);
  const auto idx = random_ints<I>(size_t(n), 0, B - 1, 4);
  auto want = poisoned<float>(size_t(n) + 64);
  Mirror<float> dx(x), dout(want);
  Mirror<I> didx(idx);
  const tilec::Grid grid{uint32_t((n + B - 1) / B)};
  tilec::interpret::launch(host::gather_1d<B, I>, grid, x.data(), idx.data(), want.data(), n);
  gather_1d<B, I>(grid, nullptr, dx.ptr(), didx.ptr(), dout.ptr(), n, {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(dout.get(), want, "out");
}

template <int R, int C, int K> void check_gather_2d(int rows, int cols, int warps) {
  SCOPED_TRACE(testing::Message() << "gather_2d<" << R << ", " << C << ", " << K << "> warps "
                                  << warps);
  const auto x = random_floats(size_t(rows) * cols, 5);
  const auto ri = random_ints<int64_t>(size_t(K) * C, 0, R - 1, 6);
  const auto ci = random_ints<uint8_t>(size_t(R) * K, 0, C - 1, 7);
  auto want_rows = poisoned<float>(size_t(K) * C + 16),
       want_cols = poisoned<float>(size_t(R) * K + 16), want_max = poisoned<float>(R + 16);
  Mirror<float> dx(x), drows(want_rows), dcols(want_cols), dmax(want_max);
  Mirror<int64_t> dri(ri);
  Mirror<uint8_t> dci(ci);
  tilec::interpret::launch(host::gather_2d<R, C, K>, tilec::Grid{1}, x.data(), ri.data(), ci.data(),
                           want_rows.data(), want_cols.data(), want_max.data(), rows, cols);
  gather_2d<R, C, K>(tilec::Grid{1}, nullptr, dx.ptr(), dri.ptr(), dci.ptr(), drows.ptr(),
                     dcols.ptr(), dmax.ptr(), rows, cols, {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(drows.get(), want_rows, "rows picked");
  expect_same_bits(dcols.get(), want_cols, "columns picked");
  expect_same_bits(dmax.get(), want_max, "maxima reversed");
}

TEST(GpuIndexed, Gather) {
  REQUIRE_GPU();
  check_gather_1d<64, uint16_t>(150, 2);
  check_gather_1d<256, int>(1000, 4);
  check_gather_1d<32, int64_t>(70, 4); // replicated
  check_gather_2d<16, 32, 8>(13, 30, 4);
  check_gather_2d<64, 64, 32>(64, 40, 8);
  check_gather_2d<4, 8, 2>(3, 8, 1);
}

template <int A, int B, int C, int K> void check_rank3(int warps) {
  SCOPED_TRACE(testing::Message() << "rank3_indexed<" << A << ", " << B << ", " << C << ", " << K
                                  << "> warps " << warps);
  const auto x = random_floats(size_t(A) * B * C, 8);
  const auto idx = random_ints<int>(size_t(A) * K * C, 0, B - 1, 9);
  auto want_mid = poisoned<float>(size_t(A) * B * C + 16),
       want_first = poisoned<float>(size_t(A) * B * C + 16),
       want_gathered = poisoned<float>(size_t(A) * K * C + 16);
  Mirror<float> dx(x), dmid(want_mid), dfirst(want_first), dgathered(want_gathered);
  Mirror<int> didx(idx);
  tilec::interpret::launch(host::rank3_indexed<A, B, C, K>, tilec::Grid{1}, x.data(), idx.data(),
                           want_mid.data(), want_first.data(), want_gathered.data());
  rank3_indexed<A, B, C, K>(tilec::Grid{1}, nullptr, dx.ptr(), didx.ptr(), dmid.ptr(), dfirst.ptr(),
                            dgathered.ptr(), {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(dmid.get(), want_mid, "flipped along axis 1");
  expect_same_bits(dfirst.get(), want_first, "flipped along axis 0");
  expect_same_bits(dgathered.get(), want_gathered, "gathered along axis 1");
}

TEST(GpuIndexed, Rank3) {
  REQUIRE_GPU();
  check_rank3<2, 4, 8, 16>(4);
  check_rank3<4, 8, 16, 4>(2);
  check_rank3<8, 16, 32, 8>(8);
}

template <int B, bool DESC> void check_sort_1d(int n, int warps) {
  SCOPED_TRACE(testing::Message() << "sort_1d<" << B << ", " << DESC << "> n " << n << " warps "
                                  << warps);
  auto x = random_floats(size_t(n), 10);
  x[1] = -0.0f, x[2] = 0.0f, x[3] = std::numeric_limits<float>::quiet_NaN(), x[4] = -INFINITY;
  auto want = poisoned<float>(size_t(n) + 64);
  Mirror<float> dx(x), dout(want);
  const tilec::Grid grid{uint32_t((n + B - 1) / B)};
  tilec::interpret::launch(host::sort_1d<B, DESC>, grid, x.data(), want.data(), n);
  sort_1d<B, DESC>(grid, nullptr, dx.ptr(), dout.ptr(), n, {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(dout.get(), want, "sorted");
}

template <int R, int C, int K> void check_sort_2d(int rows, int warps) {
  SCOPED_TRACE(testing::Message() << "sort_2d<" << R << ", " << C << ", " << K << "> rows "
                                  << rows << " warps " << warps);
  const auto hv = random_floats(size_t(rows) * C, 11);
  const std::vector<tl::half> h(hv.begin(), hv.end());
  const auto ints = random_ints<int>(size_t(rows) * C, -1000, 1000, 12);
  const size_t padded = size_t((rows + R - 1) / R * R);
  auto want_top = poisoned<tl::half>(padded * K + 64);
  auto want_sorted = poisoned<int>(padded * C + 64);
  Mirror<tl::half> dh(h), dtop(want_top);
  Mirror<int> dints(ints), dsorted(want_sorted);
  const tilec::Grid grid{uint32_t((rows + R - 1) / R)};
  tilec::interpret::launch(host::sort_2d<R, C, K>, grid, h.data(), ints.data(), want_top.data(),
                           want_sorted.data(), rows);
  sort_2d<R, C, K>(grid, nullptr, dh.ptr(), dints.ptr(), dtop.ptr(), dsorted.ptr(), rows,
                   {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(dtop.get(), want_top, "top K of each row");
  expect_same_bits(dsorted.get(), want_sorted, "sorted down the columns");
}

template <int A, int B, int C> void check_rank3_sort(int warps) {
  SCOPED_TRACE(testing::Message() << "rank3_sort<" << A << ", " << B << ", " << C << "> warps "
                                  << warps);
  const auto x = random_ints<int8_t>(size_t(A) * B * C, -128, 127, 13);
  auto want = poisoned<int8_t>(size_t(A) * B * C + 64);
  Mirror<int8_t> dx(x), dout(want);
  tilec::interpret::launch(host::rank3_sort<A, B, C>, tilec::Grid{1}, x.data(), want.data());
  rank3_sort<A, B, C>(tilec::Grid{1}, nullptr, dx.ptr(), dout.ptr(), {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(dout.get(), want, "sorted along axis 1, descending");
}

TEST(GpuIndexed, SortAndTopk) {
  REQUIRE_GPU();
  check_sort_1d<64, false>(150, 2);
  check_sort_1d<64, true>(150, 2);
  check_sort_1d<1024, false>(3000, 4);
  check_sort_1d<1024, true>(1000, 8);
  check_sort_1d<8, false>(13, 1); // fewer elements than threads: most threads idle
  check_sort_2d<8, 32, 4>(13, 4);
  check_sort_2d<16, 128, 16>(40, 8);
  check_sort_2d<4, 8, 8>(5, 1);
  check_rank3_sort<2, 8, 4>(1);
  check_rank3_sort<4, 16, 8>(4);
}

template <int B, int BINS> void check_histogram_1d(int n, int warps) {
  SCOPED_TRACE(testing::Message() << "histogram_1d<" << B << ", " << BINS << "> n " << n
                                  << " warps " << warps);
  const auto x = random_ints<int>(size_t(n), -3, BINS + 3, 10);
  const int programs = (n + B - 1) / B;
  auto want_per = poisoned<int>(size_t(programs) * BINS + 16);
  std::vector<int> want_total(BINS + 16, 0); // the atomics add into zeros
  Mirror<int> dx(x), dper(want_per), dtotal(want_total);
  tilec::interpret::launch(host::histogram_1d<B, BINS>, tilec::Grid{uint32_t(programs)}, x.data(),
                           want_per.data(), want_total.data(), n);
  histogram_1d<B, BINS>(tilec::Grid{uint32_t(programs)}, nullptr, dx.ptr(), dper.ptr(),
                        dtotal.ptr(), n, {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(dper.get(), want_per, "per program");
  expect_same_bits(dtotal.get(), want_total, "total");
  // Counts were made (a given bin may stay empty: 300 values over 512 bins).
  EXPECT_GT(std::accumulate(want_total.begin(), want_total.begin() + BINS, 0), 0);
}

template <int R, int C> void check_histogram_2d(int warps) {
  SCOPED_TRACE(testing::Message() << "histogram_2d<" << R << ", " << C << "> warps " << warps);
  const auto x = random_floats(size_t(R) * C, 11);
  const auto bytes = random_ints<uint8_t>(size_t(R) * C, 0, 255, 12);
  auto want_where = poisoned<int>(C + 16), want_counts = poisoned<int>(256 + 16);
  Mirror<float> dx(x);
  Mirror<uint8_t> dbytes(bytes);
  Mirror<int> dwhere(want_where), dcounts(want_counts);
  tilec::interpret::launch(host::histogram_2d<R, C>, tilec::Grid{1}, x.data(), bytes.data(),
                           want_where.data(), want_counts.data());
  histogram_2d<R, C>(tilec::Grid{1}, nullptr, dx.ptr(), dbytes.ptr(), dwhere.ptr(), dcounts.ptr(),
                     {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(dwhere.get(), want_where, "columns of the row maxima");
  expect_same_bits(dcounts.get(), want_counts, "byte values");
}

TEST(GpuIndexed, Histogram) {
  REQUIRE_GPU();
  check_histogram_1d<256, 16>(1000, 4);
  check_histogram_1d<128, 512>(300, 8); // more bins than elements and threads
  check_histogram_1d<1024, 8>(2500, 4);
  check_histogram_2d<16, 32>(4);
  check_histogram_2d<64, 16>(8);
}

} // namespace
