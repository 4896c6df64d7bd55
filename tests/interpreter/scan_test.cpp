// Scans: cumsum, cumprod and associative_scan along every axis of rank 1-3 tiles, forward
// and reversed, against plain loops; result types; a masked row cumsum kernel.
#include "support.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace tilec_test;

namespace {

template <class Tile, class V> Tile tile_from(const std::vector<V> &values) {
  Tile t;
  for (int i = 0; i < Tile::numel; ++i)
    t.elems[i] = typename Tile::element_type(values[i]);
  return t;
}

/// Coordinates (c0, c1, c2) of flat index f in shape (d0, d1, d2), padded with leading 1s.
std::array<int, 3> coords(int f, std::array<int, 3> d) {
  return {f / (d[1] * d[2]), f / d[2] % d[1], f % d[2]};
}

/// Reference inclusive scan along `axis`: for every element, folds the elements before it
/// (after it when reversed) on that axis, nearest last. Arithmetic in uint32 wraps like
/// the tile's int32.
template <class Tile, class Op>
std::vector<int32_t> ref_scan(const Tile &t, int axis, bool reverse, Op op) {
  std::array<int, 3> d{1, 1, 1};
  constexpr int rank = Tile::rank;
  for (int i = 0; i < rank; ++i)
    d[3 - rank + i] = Tile::shape::value[i];
  const int ax = 3 - rank + axis;
  std::vector<int32_t> out(Tile::numel);
  for (int f = 0; f < Tile::numel; ++f) {
    auto c = coords(f, d);
    const int k = c[ax];
    uint32_t acc = 0;
    bool first = true;
    const int from = reverse ? d[ax] - 1 : 0, step = reverse ? -1 : 1;
    for (int j = from; reverse ? j >= k : j <= k; j += step) {
      auto cj = c;
      cj[ax] = j;
      const uint32_t v = uint32_t(t.elems[(cj[0] * d[1] + cj[1]) * d[2] + cj[2]]);
      acc = first ? v : op(acc, v);
      first = false;
    }
    out[f] = int32_t(acc);
  }
  return out;
}

TILEC_FUNC int32_t sub_i(int32_t a, int32_t b) { return a - b; } // not associative: order shows

template <int AXIS, bool REVERSE, class Tile> void check_scan(const Tile &t) {
  constexpr int axis = AXIS < 0 ? AXIS + Tile::rank : AXIS;
  SCOPED_TRACE(testing::Message() << "rank " << Tile::rank << " axis " << AXIS << " reverse "
                                  << REVERSE);
  auto add = [](uint32_t a, uint32_t b) { return a + b; };
  auto mul = [](uint32_t a, uint32_t b) { return a * b; };
  auto sub = [](uint32_t a, uint32_t b) { return a - b; };
  auto cs = tl::cumsum<AXIS, REVERSE>(t);
  auto cp = tl::cumprod<AXIS, REVERSE>(t);
  auto as = tl::associative_scan<AXIS, REVERSE>(t, sub_i);
  static_assert(std::is_same_v<decltype(cs), Tile>);
  auto ws = ref_scan(t, axis, REVERSE, add), wp = ref_scan(t, axis, REVERSE, mul),
       wa = ref_scan(t, axis, REVERSE, sub);
  for (int f = 0; f < Tile::numel; ++f) {
    ASSERT_EQ(cs.elems[f], ws[f]) << f;
    ASSERT_EQ(cp.elems[f], wp[f]) << f;
    ASSERT_EQ(as.elems[f], wa[f]) << f;
  }
}

template <class Tile> void check_every_axis(const Tile &t) {
  check_scan<0, false>(t);
  check_scan<0, true>(t);
  check_scan<-1, false>(t);
  check_scan<-1, true>(t);
  if constexpr (Tile::rank == 3) {
    check_scan<1, false>(t);
    check_scan<1, true>(t);
  }
}

} // namespace

TEST(Scan, EveryAxis) {
  // Products of many 2s and 3s wrap; the reference wraps the same way.
  check_every_axis(tile_from<tl::tile<int32_t, 64>>(random_ints<int>(64, -3, 3, 21)));
  check_every_axis(tile_from<tl::tile<int32_t, 8, 32>>(random_ints<int>(256, -3, 3, 22)));
  check_every_axis(tile_from<tl::tile<int32_t, 4, 8, 2>>(random_ints<int>(64, -1000, 1000, 23)));
  check_every_axis(tile_from<tl::tile<int32_t, 2, 1, 16>>(random_ints<int>(32, -3, 3, 24)));
}

TEST(Scan, ResultTypesAndFloats) {
  using namespace tl;
  static_assert(std::is_same_v<decltype(cumsum(tile<int8_t, 4>{})), tile<int32_t, 4>>);
  static_assert(std::is_same_v<decltype(cumsum(tile<bool, 4>{})), tile<uint32_t, 4>>);
  static_assert(std::is_same_v<decltype(cumsum(tile<bfloat16, 4>{})), tile<float, 4>>);
  static_assert(std::is_same_v<decltype(cumsum(tile<half, 4>{})), tile<half, 4>>);
  static_assert(std::is_same_v<decltype(cumprod(tile<bfloat16, 2, 2>{})), tile<float, 2, 2>>);
  static_assert(std::is_same_v<decltype(cumprod(tile<int8_t, 4>{})), tile<int8_t, 4>>);
  EXPECT_EQ(detail::at(cumsum(full<int8_t, 4>(100)), 3), 400);
  auto ones = cumsum(arange<0, 8>() >= 0);
  EXPECT_EQ(detail::at(ones, 7), 8u);
  // Floats: left to right in index order, exactly.
  auto f = tile_from<tile<float, 4>>(std::vector<float>{1e8f, 1.0f, -1e8f, 1.0f});
  auto s = cumsum(f);
  EXPECT_EQ(detail::at(s, 2), (1e8f + 1.0f) - 1e8f);
  EXPECT_EQ(detail::at(s, 3), ((1e8f + 1.0f) - 1e8f) + 1.0f);
  auto r = cumsum<0, true>(f);
  EXPECT_EQ(detail::at(r, 0), ((1.0f + -1e8f) + 1.0f) + 1e8f);
  auto p = cumprod(tile_from<tile<double, 4>>(std::vector<double>{0.5, 3, -2, 0.25}));
  EXPECT_EQ(detail::at(p, 3), 0.5 * 3 * -2 * 0.25);
}

// Running sums of rows of n_cols (BLOCK >= n_cols); masked lanes load 0 and are not stored.
template <int BLOCK>
TILEC_KERNEL void row_cumsum_kernel(const float *x, float *out, int in_stride, int out_stride,
                                    int n_cols) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto v = tl::load(x + row * in_stride + cols, mask);
  tl::store(out + row * out_stride + cols, tl::cumsum(v), mask);
  tl::store(out + row * out_stride + n_cols - 1 - cols, tl::cumsum<0, true>(v), cols == 0);
}

TEST(Scan, MaskedRowsKernel) {
  const int rows = 5;
  for (int n : {1, 1000}) {
    auto x = random_floats(rows * n, -1.f, 1.f, 25);
    Rows<float> out(rows, n);
    tilec::interpret::launch(row_cumsum_kernel<1024>, tilec::Grid{rows}, x.data(), out.data(), n,
                             out.stride(), n);
    for (int r = 0; r < rows; ++r) {
      float acc = 0;
      for (int c = 0; c < n; ++c) {
        acc += x[r * n + c];
        // Element n-1 was overwritten with the reversed scan's first value (the row sum).
        if (c < n - 1) {
          ASSERT_EQ(out.at(r, c), acc) << r << " " << c;
        }
      }
      ASSERT_NEAR(out.at(r, n - 1), acc, 1e-4) << r;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}
