// Reductions: sum, max, min, argmax, argmin, xor_sum and reduce on rank 1-3 tiles over
// every axis (with and without keep-dims) against plain loops; result types; NaN and tie
// rules; masked row reductions in kernels.
#include "support.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>

using namespace tilec_test;

namespace {

/// Values of a tile or scalar, flattened.
template <class X> std::vector<tl::detail::elem_t<X>> flat(const X &x) {
  if constexpr (tl::detail::is_tile_v<X>)
    return {std::begin(x.elems), std::end(x.elems)};
  else
    return {x};
}

/// A tile filled from `values` (row-major).
template <class Tile, class V> Tile tile_from(const std::vector<V> &values) {
  Tile t;
  for (int i = 0; i < Tile::numel; ++i)
    t.elems[i] = typename Tile::element_type(values[i]);
  return t;
}

/// Reference reduction with plain loops over multi-indices: every element goes to the
/// bucket named by its coordinates without `axis` (axis < 0: one bucket); buckets come
/// out in row-major order of the remaining coordinates. `step(acc, value, index)` folds
/// sequentially from index 0.
template <class Acc, class T, class Step>
std::vector<Acc> ref_reduce(const std::vector<T> &x, std::vector<int> shape, int axis, Acc init,
                            Step step) {
  std::map<std::vector<int>, Acc> buckets;
  std::vector<int> coord(shape.size(), 0);
  for (size_t f = 0; f < x.size(); ++f) {
    std::vector<int> key;
    int along = int(f);
    for (size_t d = 0; axis >= 0 && d < shape.size(); ++d)
      if (int(d) != axis)
        key.push_back(coord[d]);
      else
        along = coord[d];
    auto it = buckets.try_emplace(key, init).first;
    it->second = step(it->second, x[f], along);
    for (int d = int(shape.size()) - 1; d >= 0; --d) { // next coordinate, last fastest
      if (++coord[d] < shape[d])
        break;
      coord[d] = 0;
    }
  }
  std::vector<Acc> out;
  for (auto &[key, acc] : buckets)
    out.push_back(acc);
  return out;
}

struct Arg {
  double v;
  int i;
};

/// Checks all reductions of t over AXIS (an axis, negative, or all_axes) with KEEP.
template <int AXIS, bool KEEP, class Tile> void check_axis(const Tile &t) {
  using T = typename Tile::element_type;
  constexpr int rank = Tile::rank;
  const std::vector<int> shape(Tile::shape::value.begin(), Tile::shape::value.end());
  const int axis = AXIS == tl::all_axes ? -1 : (AXIS < 0 ? AXIS + rank : AXIS);
  const std::vector<T> x = flat(t);
  SCOPED_TRACE(testing::Message() << "rank " << rank << " axis " << AXIS << " keep " << KEEP);

  // Result shapes: keep-dims keeps the rank; otherwise one less (or a scalar).
  auto s = tl::sum<AXIS, KEEP>(t);
  if constexpr (KEEP)
    static_assert(tl::detail::shape_t<decltype(s)>::rank == rank);
  else if constexpr (AXIS == tl::all_axes || rank == 1)
    static_assert(!tl::detail::is_tile_v<decltype(s)>);
  else
    static_assert(tl::detail::shape_t<decltype(s)>::rank == rank - 1);

  auto want_sum =
      ref_reduce<double>(x, shape, axis, 0.0, [](double a, T v, int) { return a + double(v); });
  auto want_max = ref_reduce<double>(x, shape, axis, -INFINITY,
                                     [](double a, T v, int) { return std::fmax(a, double(v)); });
  auto want_min = ref_reduce<double>(x, shape, axis, INFINITY,
                                     [](double a, T v, int) { return std::fmin(a, double(v)); });
  // Sequential scan from index 0 with strict comparison keeps the first of equal values.
  auto want_argmax = ref_reduce<Arg>(x, shape, axis, Arg{-INFINITY, 0}, [](Arg a, T v, int i) {
    return double(v) > a.v ? Arg{double(v), i} : a;
  });
  auto want_argmin = ref_reduce<Arg>(x, shape, axis, Arg{INFINITY, 0}, [](Arg a, T v, int i) {
    return double(v) < a.v ? Arg{double(v), i} : a;
  });
  const auto got_sum = flat(s);
  const auto got_max = flat(tl::max<AXIS, KEEP>(t));
  const auto got_min = flat(tl::min<AXIS, KEEP>(t));
  const auto got_argmax = flat(tl::argmax<AXIS, KEEP>(t));
  const auto got_argmin = flat(tl::argmin<AXIS, KEEP>(t));
  ASSERT_EQ(got_sum.size(), want_sum.size());
  for (size_t k = 0; k < want_sum.size(); ++k) {
    EXPECT_NEAR(double(got_sum[k]), want_sum[k], 1e-4 * (1 + std::fabs(want_sum[k]))) << k;
    EXPECT_EQ(double(got_max[k]), want_max[k]) << k;
    EXPECT_EQ(double(got_min[k]), want_min[k]) << k;
    EXPECT_EQ(got_argmax[k], want_argmax[k].i) << k;
    EXPECT_EQ(got_argmin[k], want_argmin[k].i) << k;
  }
  if constexpr (tl::detail::is_int_elem_v<T>) {
    auto want_xor = ref_reduce<T>(x, shape, axis, T(0), [](T a, T v, int) { return T(a ^ v); });
    auto got_xor = flat(tl::xor_sum<AXIS, KEEP>(t));
    for (size_t k = 0; k < want_xor.size(); ++k)
      EXPECT_EQ(got_xor[k], want_xor[k]) << k;
  }
}

template <class Tile> void check_all_axes(const Tile &t) {
  check_axis<tl::all_axes, false>(t);
  check_axis<tl::all_axes, true>(t);
  check_axis<0, false>(t);
  check_axis<0, true>(t);
  check_axis<-1, false>(t);
  check_axis<-1, true>(t);
  if constexpr (Tile::rank >= 2) {
    check_axis<1, false>(t);
    check_axis<1, true>(t);
  }
  if constexpr (Tile::rank == 3) {
    check_axis<2, false>(t);
    check_axis<-2, true>(t);
  }
}

} // namespace

TEST(Reduction, EveryAxisFloat) {
  // Few distinct values, so ties are frequent and argmax/argmin must pick the first.
  check_all_axes(tile_from<tl::tile<float, 64>>(random_ints<int>(64, -3, 3, 1)));
  check_all_axes(tile_from<tl::tile<float, 8, 16>>(random_ints<int>(128, -3, 3, 2)));
  check_all_axes(tile_from<tl::tile<float, 4, 2, 8>>(random_ints<int>(64, -3, 3, 3)));
  check_all_axes(tile_from<tl::tile<float, 2, 32, 4>>(random_floats(256, -1, 1, 4)));
  check_all_axes(tile_from<tl::tile<double, 1, 16>>(random_floats(16, -1, 1, 5)));
}

TEST(Reduction, EveryAxisInteger) {
  check_all_axes(tile_from<tl::tile<int32_t, 128>>(random_ints<int>(128, -1000, 1000, 6)));
  check_all_axes(tile_from<tl::tile<int32_t, 16, 4>>(random_ints<int>(64, -2, 2, 7)));
  check_all_axes(tile_from<tl::tile<int64_t, 2, 4, 8>>(random_ints<int64_t>(64, -5, 5, 8)));
  check_all_axes(tile_from<tl::tile<uint8_t, 8, 8>>(random_ints<int>(64, 0, 255, 9)));
  check_all_axes(tile_from<tl::tile<int8_t, 2, 2, 32>>(random_ints<int>(128, -128, 127, 10)));
}

TEST(Reduction, ResultTypes) {
  using namespace tl;
  // sum: narrow integers widen to 32 bits keeping their signedness (bool is unsigned).
  static_assert(std::is_same_v<decltype(sum(tile<int8_t, 4>{})), int32_t>);
  static_assert(std::is_same_v<decltype(sum(tile<int16_t, 4>{})), int32_t>);
  static_assert(std::is_same_v<decltype(sum(tile<uint8_t, 4>{})), uint32_t>);
  static_assert(std::is_same_v<decltype(sum(tile<uint16_t, 4>{})), uint32_t>);
  static_assert(std::is_same_v<decltype(sum(tile<bool, 4>{})), uint32_t>);
  static_assert(std::is_same_v<decltype(sum(tile<uint64_t, 4>{})), uint64_t>);
  static_assert(std::is_same_v<decltype(sum(tile<half, 4>{})), half>);
  static_assert(std::is_same_v<decltype(sum(tile<bfloat16, 4>{})), bfloat16>);
  static_assert(std::is_same_v<decltype(sum<0>(tile<int8_t, 4, 2>{})), tile<int32_t, 2>>);
  // max/min: 16-bit floats -> float, narrow integers -> int32.
  static_assert(std::is_same_v<decltype(max(tile<half, 4>{})), float>);
  static_assert(std::is_same_v<decltype(min(tile<bfloat16, 4>{})), float>);
  static_assert(std::is_same_v<decltype(max(tile<uint8_t, 4>{})), int32_t>);
  static_assert(std::is_same_v<decltype(min(tile<bool, 4>{})), int32_t>);
  static_assert(std::is_same_v<decltype(max(tile<uint32_t, 4>{})), uint32_t>);
  static_assert(std::is_same_v<decltype(argmax<1>(tile<double, 4, 8>{})), tile<int32_t, 4>>);
  static_assert(std::is_same_v<decltype(argmin<0, true>(tile<half, 4, 8>{})), tile<int32_t, 1, 8>>);
  static_assert(std::is_same_v<decltype(xor_sum(tile<int8_t, 4>{})), int8_t>);
  static_assert(
      std::is_same_v<decltype(sum<all_axes, true>(tile<float, 4, 8>{})), tile<float, 1, 1>>);

  // Values past the narrow type's range.
  EXPECT_EQ(sum(full<int8_t, 64>(100)), 6400);
  EXPECT_EQ(sum(full<uint16_t, 4>(60000)), 240000u);
  EXPECT_EQ(sum(arange<0, 8>() < 5), 5u);
  EXPECT_EQ(max(full<uint8_t, 4>(200)), 200);
  // A half sum adds in half: (2048 + 1) + (1 + 1) = 2048 + 2 = 2050, where a float
  // accumulation would give 2051 and round to 2052.
  auto h = tile_from<tile<half, 4>>(std::vector<float>{2048, 1, 1, 1});
  EXPECT_EQ(float(sum(h)), 2050.0f);
  EXPECT_EQ(float(half(sum(cast<float>(h)))), 2052.0f);
  // Integer sums wrap.
  EXPECT_EQ(sum(full<int32_t, 2>(0x7fffffff)), -2);
}

TEST(Reduction, NanAndSpecialValues) {
  using namespace tl;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto t = tile_from<tile<float, 8>>(std::vector<float>{nan, 1, nan, 5, -2, nan, 5, nan});
  EXPECT_EQ(max(t), 5.0f);
  EXPECT_EQ(min(t), -2.0f);
  EXPECT_EQ(argmax(t), 3); // first of the two 5s; NaNs skipped
  EXPECT_EQ(argmin(t), 4);
  auto all_nan = full<float, 4>(nan);
  EXPECT_TRUE(std::isnan(max(all_nan)));
  EXPECT_EQ(argmax(all_nan), 0);
  EXPECT_EQ(argmin(all_nan), 0);
  auto inf =
      tile_from<tile<float, 4>>(std::vector<float>{-INFINITY, -INFINITY, -INFINITY, -INFINITY});
  EXPECT_EQ(max(inf), -INFINITY);
  EXPECT_EQ(argmax(inf), 0);
  // Rank 2, per row: NaN-only row and a row whose maximum is last.
  auto m = tile_from<tile<float, 2, 4>>(std::vector<float>{nan, nan, nan, nan, 1, 2, 3, 4});
  auto rows = argmax<1>(m);
  EXPECT_EQ(detail::at(rows, 0), 0);
  EXPECT_EQ(detail::at(rows, 1), 3);
  // Integer extremes.
  auto ints = tile_from<tile<int64_t, 4>>(std::vector<int64_t>{
      0, std::numeric_limits<int64_t>::min(), 7, std::numeric_limits<int64_t>::max()});
  EXPECT_EQ(max(ints), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(argmin(ints), 1);
}

// Combine functions the way kernels write them.
TILEC_FUNC int32_t max_abs(int32_t a, int32_t b) { return std::abs(a) < std::abs(b) ? b : a; }
TILEC_FUNC float keep_left(float a, float) { return a; }
TILEC_FUNC float keep_right(float, float b) { return b; }
TILEC_FUNC float add_f(float a, float b) { return a + b; }

TEST(Reduction, UserCombine) {
  auto t = tile_from<tl::tile<int32_t, 4, 8>>(random_ints<int>(32, -50, 50, 11));
  auto got = tl::reduce<1>(t, max_abs);
  static_assert(std::is_same_v<decltype(got), tl::tile<int32_t, 4>>);
  for (int r = 0; r < 4; ++r) {
    int best = 0;
    for (int c = 0; c < 8; ++c)
      best = std::abs(t.elems[r * 8 + c]) > std::abs(best) ? t.elems[r * 8 + c] : best;
    EXPECT_EQ(std::abs(tl::detail::at(got, r)), std::abs(best)) << r;
  }
  // The left operand always holds the lower indices: projections pick the ends.
  auto f = tile_from<tl::tile<float, 2, 8, 4>>(random_floats(64, -1, 1, 12));
  auto first = tl::reduce<1>(f, keep_left), last = tl::reduce<1>(f, keep_right);
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(first.elems[a * 4 + c], f.elems[a * 32 + c]);
      EXPECT_EQ(last.elems[a * 4 + c], f.elems[a * 32 + 7 * 4 + c]);
    }
  EXPECT_EQ(tl::reduce(f, keep_left), f.elems[0]);
  EXPECT_EQ(tl::reduce(f, keep_right), f.elems[63]);
  // The tree order: ((x0 + x1) + (x2 + x3)), exactly.
  auto four = tile_from<tl::tile<float, 4>>(std::vector<float>{1e8f, 1.0f, -1e8f, 1.0f});
  EXPECT_EQ(tl::reduce<0>(four, add_f), (1e8f + 1.0f) + (-1e8f + 1.0f));
  EXPECT_EQ(tl::sum(four), (1e8f + 1.0f) + (-1e8f + 1.0f));
  // A lambda works too (host code); keep-dims.
  auto k = tl::reduce<0, true>(t, [](int a, int b) { return a | b; });
  static_assert(std::is_same_v<decltype(k), tl::tile<int32_t, 1, 8>>);
}

// Row statistics the Triton way: one row per program, BLOCK >= n_cols, masked lanes load
// the neutral value (-inf for max, +inf for min, 0 for sum).
template <int BLOCK>
TILEC_KERNEL void row_stats_kernel(const float *x, float *stats, int32_t *idx, int stride,
                                   int n_cols) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  const float *p = x + row * stride;
  auto hi = tl::load(p + cols, mask, -INFINITY);
  auto lo = tl::load(p + cols, mask, INFINITY);
  auto z = tl::load(p + cols, mask);
  tl::store(stats + 3 * row + 0, tl::max(hi));
  tl::store(stats + 3 * row + 1, tl::min(lo));
  tl::store(stats + 3 * row + 2, tl::sum(z));
  tl::store(idx + 2 * row + 0, tl::argmax<0>(hi));
  tl::store(idx + 2 * row + 1, tl::argmin(lo));
}

TEST(Reduction, MaskedRowsKernel) {
  const int rows = 37;
  for (int n : {1, 1000, 1024}) {
    // Negative values: a max that ignored the mask would see the 0s of masked lanes.
    auto x = random_floats(rows * n, -100.f, -1.f, 13);
    std::vector<float> stats(3 * rows + kGuard, -7.f);
    std::vector<int32_t> idx(2 * rows + kGuard, -7);
    tilec::interpret::launch(row_stats_kernel<1024>, tilec::Grid{uint32_t(rows)}, x.data(),
                             stats.data(), idx.data(), n, n);
    for (int r = 0; r < rows; ++r) {
      const float *row = x.data() + r * n;
      int imax = 0, imin = 0;
      double s = 0;
      for (int c = 0; c < n; ++c) {
        imax = row[c] > row[imax] ? c : imax;
        imin = row[c] < row[imin] ? c : imin;
        s += row[c];
      }
      ASSERT_EQ(stats[3 * r], row[imax]) << r;
      ASSERT_EQ(stats[3 * r + 1], row[imin]) << r;
      ASSERT_NEAR(stats[3 * r + 2], s, 1e-5 * std::fabs(s)) << r;
      ASSERT_EQ(idx[2 * r], imax) << r;
      ASSERT_EQ(idx[2 * r + 1], imin) << r;
    }
    for (int g = 0; g < kGuard; ++g)
      ASSERT_TRUE(stats[3 * rows + g] == -7.f && idx[2 * rows + g] == -7) << g;
  }
}

// Column sums of a rows x cols matrix, a BM x BN block per program, with 2-D masks.
template <int BM, int BN>
TILEC_KERNEL void col_sum_kernel(const int32_t *x, int64_t *out, int rows, int cols) {
  auto c = tl::program_id(0) * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<int64_t, BN>();
  for (int r0 = 0; r0 < rows; r0 += BM) {
    auto r = r0 + tl::arange<0, BM>();
    auto mask = (tl::expand_dims<1>(r) < rows) && (tl::expand_dims<0>(c) < cols);
    auto v = tl::load(x + tl::expand_dims<1>(r) * cols + tl::expand_dims<0>(c), mask, 1 << 30);
    auto masked = tl::where(mask, tl::cast<int64_t>(v), int64_t(0));
    acc += tl::sum<0>(masked);
  }
  tl::store(out + c, acc, c < cols);
}

TEST(Reduction, ColumnSumsKernel) {
  const int rows = 37, cols = 100;
  auto x = random_ints<int32_t>(rows * cols, -(1 << 30), 1 << 30, 14);
  Rows<int64_t> out(1, cols);
  tilec::interpret::launch(col_sum_kernel<16, 32>, grid_for(cols, 32), x.data(), out.data(), rows,
                           cols);
  for (int c = 0; c < cols; ++c) {
    int64_t s = 0;
    for (int r = 0; r < rows; ++r)
      s += x[r * cols + c];
    ASSERT_EQ(out.at(0, c), s) << c;
  }
  EXPECT_TRUE(out.guards_intact());
}
