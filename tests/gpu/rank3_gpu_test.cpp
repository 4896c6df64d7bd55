// Rank-3 tiles on the GPU against the interpreter running the same kernels
// (kernels/rank3.cpp) on the same inputs: masked loads and stores of a [A, B, C] block whose
// array is smaller than the block on every axis, broadcasting, reductions along each axis
// (float sums within rounding: the GPU sums in index order, the interpreter as a tree;
// maxima, minima and indices exactly), tl::join of rank-2 tiles and tl::split of rank-3,
// rank-2 and rank-1 tiles bit for bit (-0.0, infinities and NaN payloads included), permute /
// trans and reshape of rank-3 tiles bit for bit, whole-tile reductions of them, scans along
// each axis of rank-3 tiles and of their slices (an order-sensitive combine exactly). Layouts
// include an axis 0 repeated across threads and several warps per axis. Outputs are poisoned
// on both sides, so an element one side writes and the other does not differs.
#include "gpu_test_support.h"
#include "rank3.tilec.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/rank3.cpp"
} // namespace host

namespace {

using tilec_test::expect_close;
using tilec_test::Mirror;
using tilec_test::poisoned;

/// The same bits (poison and NaN payloads included).
void expect_bits(const std::vector<float> &gpu, const std::vector<float> &want,
                 const std::string &what) {
  ASSERT_EQ(gpu.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    uint32_t g, w;
    std::memcpy(&g, &gpu[i], 4);
    std::memcpy(&w, &want[i], 4);
    ASSERT_EQ(g, w) << what << " element " << i << ": gpu " << gpu[i] << ", interpreter "
                    << want[i];
  }
}

template <int A, int B, int C> void check_rank3_ops(int n0, int n1, int n2, int num_warps) {
  SCOPED_TRACE(testing::Message() << "rank3_ops<" << A << ", " << B << ", " << C << "> n=" << n0
                                  << "x" << n1 << "x" << n2 << " warps=" << num_warps);
  std::mt19937 rng(n0 * 1009 + n1 * 31 + n2);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(size_t(n0) * n1 * n2), w(size_t(n1) * n2);
  for (float &v : x)
    v = dist(rng);
  for (float &v : w)
    v = dist(rng);
  auto y = poisoned<float>(x.size()), row_sums = poisoned<float>(size_t(n0) * n1);
  auto col_max = poisoned<float>(size_t(n0) * n2), plane_sums = poisoned<float>(size_t(n0));
  auto row_argmax = poisoned<int>(size_t(n0) * n1);
  Mirror<float> dx(x), dw(w), dy(y), drs(row_sums), dcm(col_max), dps(plane_sums);
  Mirror<int> dam(row_argmax);
  const tilec::Grid grid{uint32_t((n0 + A - 1) / A)};
  tilec::interpret::launch(host::rank3_ops<A, B, C>, grid, x.data(), w.data(), y.data(),
                           row_sums.data(), col_max.data(), row_argmax.data(), plane_sums.data(),
                           n0, n1, n2);
  rank3_ops<A, B, C>(grid, nullptr, dx.ptr(), dw.ptr(), dy.ptr(), drs.ptr(), dcm.ptr(), dam.ptr(),
                     dps.ptr(), n0, n1, n2, {.num_warps = num_warps});
  tilec_test::synchronize();
  expect_close(dy.get(), y, 1e-5, 1e-5, "(v - mean) * w + min<0>");
  expect_close(drs.get(), row_sums, 1e-5, 1e-5, "sum<2>");
  expect_bits(dcm.get(), col_max, "max<1>");
  EXPECT_EQ(dam.get(), row_argmax) << "argmax<2>";
  expect_close(dps.get(), plane_sums, 1e-5, 1e-5, "sum<1>(sum<2>)");
}

TEST(GpuRank3, ElementwiseBroadcastAndReductions) {
  REQUIRE_GPU();
  check_rank3_ops<4, 8, 16>(10, 7, 13, 4);   // lanes over axes 2 and 1, warps over axis 0
  check_rank3_ops<2, 2, 32>(5, 2, 29, 4);    // axis 0 repeats across threads
  check_rank3_ops<8, 16, 32>(19, 16, 30, 8); // several elements per thread on every axis
  check_rank3_ops<16, 4, 4>(40, 3, 4, 2);    // short last axis, lanes over all three axes
}

template <int A, int B> void check_join_split(int n0, int n1, int num_warps) {
  SCOPED_TRACE(testing::Message() << "join_split<" << A << ", " << B << "> n=" << n0 << "x" << n1
                                  << " warps=" << num_warps);
  std::mt19937 rng(n0 * 17 + n1);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  // Values whose bits a sum or a product could change: signed zeros, infinities, NaNs with
  // payloads and signs.
  const uint32_t special[] = {0x80000000u, 0x00000000u, 0x7f800000u, 0xff800000u,
                              0x7fc00001u, 0xffa12345u, 0x7f812345u, 0x00000001u};
  std::vector<float> p(size_t(n0) * n1), q(p.size());
  for (auto *v : {&p, &q})
    for (float &e : *v) {
      e = dist(rng);
      if (rng() % 4 == 0)
        std::memcpy(&e, &special[rng() % 8], 4);
    }
  const uint32_t programs = uint32_t((n0 + A - 1) / A);
  auto joined = poisoned<float>(p.size() * 2), lo = poisoned<float>(p.size()), hi = lo;
  auto firsts = poisoned<float>(size_t(programs) * A), seconds = firsts;
  auto ends = poisoned<float>(size_t(programs) * 2);
  Mirror<float> dp(p), dq(q), dj(joined), dlo(lo), dhi(hi), df(firsts), ds(seconds), de(ends);
  tilec::interpret::launch(host::join_split<A, B>, tilec::Grid{programs}, p.data(), q.data(),
                           joined.data(), lo.data(), hi.data(), firsts.data(), seconds.data(),
                           ends.data(), n0, n1);
  join_split<A, B>(tilec::Grid{programs}, nullptr, dp.ptr(), dq.ptr(), dj.ptr(), dlo.ptr(),
                   dhi.ptr(), df.ptr(), ds.ptr(), de.ptr(), n0, n1, {.num_warps = num_warps});
  tilec_test::synchronize();
  expect_bits(dj.get(), joined, "join of [A, B] tiles");
  expect_bits(dlo.get(), lo, "split of [A, B, 2]: first");
  expect_bits(dhi.get(), hi, "split of [A, B, 2]: second");
  expect_bits(df.get(), firsts, "split of [A, 2]: first");
  expect_bits(ds.get(), seconds, "split of [A, 2]: second");
  expect_bits(de.get(), ends, "split of [2]");
  // And what the interpreter gives is what split promises: the joined halves back.
  for (size_t i = 0; i < p.size(); ++i) {
    ASSERT_EQ(std::memcmp(&lo[i], &p[i], 4), 0) << "lo " << i;
    ASSERT_EQ(std::memcmp(&hi[i], &q[i], 4), 0) << "hi " << i;
  }
}

TEST(GpuRank3, JoinAndSplitKeepTheBits) {
  REQUIRE_GPU();
  check_join_split<16, 8>(37, 6, 4);
  check_join_split<2, 4>(5, 4, 1); // more threads than elements
  check_join_split<64, 32>(100, 29, 8);
}

template <int A, int B, int C> void check_rank3_relayout(int n0, int n1, int n2, int num_warps) {
  SCOPED_TRACE(testing::Message() << "rank3_relayout<" << A << ", " << B << ", " << C << "> n="
                                  << n0 << "x" << n1 << "x" << n2 << " warps=" << num_warps);
  std::mt19937 rng(n0 * 7919 + n1 * 101 + n2 * 3 + num_warps);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(size_t(n0) * n1 * n2);
  for (float &v : x)
    v = dist(rng);
  const uint32_t programs = uint32_t((n0 + A - 1) / A);
  const size_t block = size_t(A) * B * C;
  auto permuted = poisoned<float>(x.size()), swapped = poisoned<float>(x.size());
  auto flat = poisoned<float>(programs * block), reshaped = poisoned<float>(programs * block * 2);
  auto sums = poisoned<float>(programs), maxes = poisoned<float>(programs);
  auto argmins = poisoned<int>(programs);
  auto centered = poisoned<float>(x.size());
  Mirror<float> dx(x), dp(permuted), ds(swapped), df(flat), dr(reshaped), dsum(sums), dmax(maxes),
      dc(centered);
  Mirror<int> darg(argmins);
  tilec::interpret::launch(host::rank3_relayout<A, B, C>, tilec::Grid{programs}, x.data(),
                           permuted.data(), swapped.data(), flat.data(), reshaped.data(),
                           sums.data(), maxes.data(), argmins.data(), centered.data(), n0, n1, n2);
  rank3_relayout<A, B, C>(tilec::Grid{programs}, nullptr, dx.ptr(), dp.ptr(), ds.ptr(), df.ptr(),
                          dr.ptr(), dsum.ptr(), dmax.ptr(), darg.ptr(), dc.ptr(), n0, n1, n2,
                          {.num_warps = num_warps});
  tilec_test::synchronize();
  // Elements that only move keep their bits; the interpreter's sums differ by rounding.
  expect_bits(dp.get(), permuted, "permute<2, 0, 1>");
  expect_bits(ds.get(), swapped, "trans<1, 0, 2>");
  expect_bits(df.get(), flat, "reshape to rank 1");
  expect_bits(dr.get(), reshaped, "reshape 3 -> 2 -> 3 and 3 -> 3 -> 1");
  expect_close(dsum.get(), sums, 1e-5, 1e-5, "sum(v)");
  expect_bits(dmax.get(), maxes, "max<all_axes>(v)");
  EXPECT_EQ(darg.get(), argmins) << "argmin(v)";
  expect_bits(dc.get(), centered, "v - max<all_axes, true>(v)");
}

TEST(GpuRank3, PermuteReshapeAndWholeTileReductions) {
  REQUIRE_GPU();
  check_rank3_relayout<4, 8, 16>(10, 7, 13, 4);   // lanes over axes 2 and 1, warps over axis 0
  check_rank3_relayout<2, 2, 32>(5, 2, 29, 4);    // axis 0 repeats across threads
  check_rank3_relayout<8, 16, 32>(19, 16, 30, 8); // several elements per thread on every axis
  check_rank3_relayout<16, 4, 4>(40, 3, 4, 2);    // short last axis, lanes over all three axes
  check_rank3_relayout<2, 4, 2>(3, 3, 1, 1);      // fewer elements than threads
}

template <int A, int B, int C> void check_rank3_scans(int n0, int n1, int n2, int num_warps) {
  SCOPED_TRACE(testing::Message() << "rank3_scans<" << A << ", " << B << ", " << C << "> n=" << n0
                                  << "x" << n1 << "x" << n2 << " warps=" << num_warps);
  std::mt19937 rng(n0 * 4099 + n1 * 67 + n2 * 5 + num_warps);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const size_t count = size_t(n0) * n1 * n2;
  std::vector<float> x(count);
  std::vector<uint32_t> maps(count);
  for (float &v : x)
    v = dist(rng);
  for (uint32_t &f : maps) // odd multipliers: no map collapses the ones composed after it
    f = ((rng() | 1u) & 0xffffu) << 16 | (rng() & 0xffffu);
  const uint32_t programs = uint32_t((n0 + A - 1) / A);
  auto sum0 = poisoned<float>(count), sum1_rev = sum0, prod2 = sum0;
  auto compose2 = poisoned<uint32_t>(count), compose0_rev = compose2;
  auto row_scan = poisoned<float>(size_t(n0) * n1), plane_scan = poisoned<float>(size_t(n0));
  auto flat_scan = poisoned<float>(size_t(n0) * n2);
  Mirror<float> dx(x), ds0(sum0), ds1(sum1_rev), dp2(prod2), drs(row_scan), dps(plane_scan),
      dfs(flat_scan);
  Mirror<uint32_t> dm(maps), dc2(compose2), dc0(compose0_rev);
  tilec::interpret::launch(host::rank3_scans<A, B, C>, tilec::Grid{programs}, x.data(),
                           maps.data(), sum0.data(), sum1_rev.data(), prod2.data(),
                           compose2.data(), compose0_rev.data(), row_scan.data(),
                           plane_scan.data(), flat_scan.data(), n0, n1, n2);
  rank3_scans<A, B, C>(tilec::Grid{programs}, nullptr, dx.ptr(), dm.ptr(), ds0.ptr(), ds1.ptr(),
                       dp2.ptr(), dc2.ptr(), dc0.ptr(), drs.ptr(), dps.ptr(), dfs.ptr(), n0, n1,
                       n2, {.num_warps = num_warps});
  tilec_test::synchronize();
  expect_close(ds0.get(), sum0, 1e-5, 1e-5, "cumsum<0>");
  expect_close(ds1.get(), sum1_rev, 1e-5, 1e-5, "cumsum<1, true>");
  expect_close(dp2.get(), prod2, 1e-5, 1e-5, "cumprod<2>");
  // The compose results are exact: any change of order shows.
  EXPECT_EQ(dc2.get(), compose2) << "associative_scan<2>";
  EXPECT_EQ(dc0.get(), compose0_rev) << "associative_scan<0, true>";
  expect_close(drs.get(), row_scan, 1e-5, 1e-5, "cumsum<1>(sum<2>(v))");
  expect_close(dps.get(), plane_scan, 1e-5, 1e-5, "cumsum<0, true> of a rank-1 slice");
  expect_close(dfs.get(), flat_scan, 1e-5, 1e-5, "cumsum<0> of a slice of a rank-2 tile");
}

TEST(GpuRank3, ScansAlongEachAxisAndOfSlices) {
  REQUIRE_GPU();
  check_rank3_scans<4, 8, 16>(10, 7, 13, 4);   // lanes over axes 2 and 1, warps over axis 0
  check_rank3_scans<2, 2, 32>(5, 2, 29, 4);    // axis 0 repeats across threads
  check_rank3_scans<8, 16, 32>(19, 16, 30, 8); // more lines than threads along axis 0
  check_rank3_scans<16, 4, 4>(40, 3, 4, 2);    // segments longer than one element
  check_rank3_scans<2, 4, 2>(3, 3, 1, 1);      // fewer elements than threads
}

} // namespace
