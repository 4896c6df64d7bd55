// Shape operations: expand_dims, broadcast_to, reshape, trans, permute, join, split, and
// 2-D pointer arithmetic (base + rows[:, None] * stride + cols[None, :]) in kernels.
#include "support.h"

#include <gtest/gtest.h>

using namespace tilec_test;

namespace {

/// A tile whose element at flat index f is f * 10 + 1 (so every position is distinct).
template <class Tile> Tile numbered() {
  Tile t;
  for (int i = 0; i < Tile::numel; ++i)
    t.elems[i] = typename Tile::element_type(i * 10 + 1);
  return t;
}

} // namespace

TEST(Shape, ExpandDims) {
  auto a = numbered<tl::tile<int, 8>>();
  auto col = tl::expand_dims<1>(a); // a[:, None]
  auto row = tl::expand_dims<0>(a); // a[None, :]
  auto last = tl::expand_dims<-1>(a);
  static_assert(std::is_same_v<decltype(col), tl::tile<int, 8, 1>>);
  static_assert(std::is_same_v<decltype(row), tl::tile<int, 1, 8>>);
  static_assert(std::is_same_v<decltype(last), tl::tile<int, 8, 1>>);
  auto m = numbered<tl::tile<float, 2, 4>>();
  static_assert(std::is_same_v<decltype(tl::expand_dims<1>(m)), tl::tile<float, 2, 1, 4>>);
  static_assert(std::is_same_v<decltype(tl::expand_dims<2>(m)), tl::tile<float, 2, 4, 1>>);
  static_assert(std::is_same_v<decltype(tl::expand_dims<-3>(m)), tl::tile<float, 1, 2, 4>>);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(col.elems[i], a.elems[i]);
  // Outer "product" by broadcasting.
  auto outer = col * 100 + row;
  static_assert(std::is_same_v<decltype(outer), tl::tile<int, 8, 8>>);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      ASSERT_EQ(outer.elems[i * 8 + j], a.elems[i] * 100 + a.elems[j]);
}

TEST(Shape, BroadcastToAndReshape) {
  auto r = numbered<tl::tile<int, 1, 4>>();
  auto b = tl::broadcast_to<3 + 1, 4>(r);
  static_assert(std::is_same_v<decltype(b), tl::tile<int, 4, 4>>);
  auto b3 = tl::broadcast_to<2, 4, 4>(numbered<tl::tile<int, 4, 1>>());
  auto s = tl::broadcast_to<2, 2>(7.5f);
  static_assert(std::is_same_v<decltype(s), tl::tile<float, 2, 2>>);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      ASSERT_EQ(b.elems[i * 4 + j], r.elems[j]);
      ASSERT_EQ(b3.elems[16 + i * 4 + j], 10 * i + 1);
    }
  EXPECT_EQ(s.elems[3], 7.5f);

  auto m = numbered<tl::tile<double, 4, 8>>();
  auto flat = tl::reshape<32>(m);
  auto cube = tl::reshape<2, 4, 4>(m);
  static_assert(std::is_same_v<decltype(cube), tl::tile<double, 2, 4, 4>>);
  for (int i = 0; i < 32; ++i) {
    ASSERT_EQ(flat.elems[i], m.elems[i]); // row-major: the order does not change
    ASSERT_EQ(cube.elems[i], m.elems[i]);
  }
  auto back = tl::reshape<4, 8>(flat);
  EXPECT_EQ(back.elems[9], m.elems[9]);
}

TEST(Shape, TransAndPermute) {
  auto m = numbered<tl::tile<int16_t, 4, 8>>();
  auto t = tl::trans(m);
  static_assert(std::is_same_v<decltype(t), tl::tile<int16_t, 8, 4>>);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      ASSERT_EQ(t.elems[j * 4 + i], m.elems[i * 8 + j]);

  // Every permutation of a rank-3 tile, against index arithmetic.
  auto c = numbered<tl::tile<int, 2, 4, 8>>();
  auto check = [&](auto p, std::array<int, 3> perm) {
    const int d[3] = {2, 4, 8};
    const int od[3] = {d[perm[0]], d[perm[1]], d[perm[2]]};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 8; ++k) {
          const int in[3] = {i, j, k};
          const int o = (in[perm[0]] * od[1] + in[perm[1]]) * od[2] + in[perm[2]];
          ASSERT_EQ(p.elems[o], c.elems[(i * 4 + j) * 8 + k]) << perm[0] << perm[1] << perm[2];
        }
  };
  check(tl::permute<0, 1, 2>(c), {0, 1, 2});
  check(tl::permute<0, 2, 1>(c), {0, 2, 1});
  check(tl::permute<1, 0, 2>(c), {1, 0, 2});
  check(tl::permute<1, 2, 0>(c), {1, 2, 0});
  check(tl::permute<2, 0, 1>(c), {2, 0, 1});
  check(tl::permute<2, 1, 0>(c), {2, 1, 0});
  check(tl::trans<2, 1, 0>(c), {2, 1, 0});
  static_assert(std::is_same_v<decltype(tl::permute<2, 0, 1>(c)), tl::tile<int, 8, 2, 4>>);
  static_assert(
      std::is_same_v<decltype(tl::permute<0>(numbered<tl::tile<int, 4>>())), tl::tile<int, 4>>);
}

TEST(Shape, JoinAndSplit) {
  auto a = numbered<tl::tile<float, 4>>();
  auto b = a * -1.0f;
  auto j = tl::join(a, b);
  static_assert(std::is_same_v<decltype(j), tl::tile<float, 4, 2>>);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(j.elems[2 * i], a.elems[i]);
    EXPECT_EQ(j.elems[2 * i + 1], b.elems[i]);
  }
  auto [x, y] = tl::split(j);
  static_assert(std::is_same_v<decltype(x), tl::tile<float, 4>>);
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(x.elems[i] == a.elems[i] && y.elems[i] == b.elems[i]);
  // Rank 2 -> 3, with broadcasting of the operands; back with split.
  auto m = numbered<tl::tile<int, 2, 4>>();
  auto j3 = tl::join(m, tl::expand_dims<0>(tl::arange<0, 4>()));
  static_assert(std::is_same_v<decltype(j3), tl::tile<int, 2, 4, 2>>);
  auto [m2, idx] = tl::split(j3);
  for (int i = 0; i < 8; ++i)
    EXPECT_TRUE(m2.elems[i] == m.elems[i] && idx.elems[i] == i % 4);
  // Scalars join to a tile of 2; a tile of 2 splits into scalars.
  auto pair = tl::join(3, 4);
  static_assert(std::is_same_v<decltype(pair), tl::tile<int32_t, 2>>);
  auto [p, q] = tl::split(pair);
  static_assert(std::is_same_v<decltype(p), int32_t>);
  EXPECT_EQ(p * 10 + q, 34);
  // Interleave (Triton's tl.interleave): join then reshape.
  auto inter = tl::reshape<8>(tl::join(a, b));
  EXPECT_EQ(inter.elems[5], b.elems[2]);
}

// Copies the transpose of a rows x cols matrix (row stride `in_stride`) into out (cols rows,
// row stride `out_stride`), a BM x BN block per program on a 2-D grid.
template <int BM, int BN>
TILEC_KERNEL void transpose_kernel(const float *x, float *out, int rows, int cols, int in_stride,
                                   int out_stride) {
  auto r = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto c = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto ptrs = x + tl::expand_dims<1>(r) * in_stride + tl::expand_dims<0>(c);
  static_assert(std::is_same_v<decltype(ptrs), tl::tile<const float *, BM, BN>>);
  auto mask = (tl::expand_dims<1>(r) < rows) & (tl::expand_dims<0>(c) < cols);
  auto block = tl::load(ptrs, mask);
  auto out_ptrs = out + tl::expand_dims<1>(c) * out_stride + tl::expand_dims<0>(r);
  tl::store(out_ptrs, tl::trans(block), tl::trans(mask));
}

TEST(Shape, TwoDimensionalPointers) {
  for (auto [rows, cols] : {std::pair{37, 100}, std::pair{1, 1}, std::pair{64, 33}}) {
    auto x = random_floats(rows * cols, -1.f, 1.f, 41);
    Rows<float> out(cols, rows);
    tilec::interpret::launch(
        transpose_kernel<16, 32>,
        tilec::Grid{uint32_t(tilec::cdiv(rows, 16)), uint32_t(tilec::cdiv(cols, 32))}, x.data(),
        out.data(), rows, cols, cols, out.stride());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        ASSERT_EQ(out.at(c, r), x[r * cols + c]) << r << " " << c;
    EXPECT_TRUE(out.guards_intact()) << rows << "x" << cols;
  }
}

// Triton's interleave, cat and ravel: interleave alternates along the last axis, cat of rank-1
// tiles is the interleaving (Triton leaves its order unspecified), ravel is row-major.
TEST(Shape, InterleaveCatRavel) {
  auto a = tl::arange<0, 4>(), b = tl::arange<10, 14>();
  auto ab = tl::interleave(a, b);
  static_assert(std::is_same_v<decltype(ab), tl::tile<int, 8>>);
  const int want[8] = {0, 10, 1, 11, 2, 12, 3, 13};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(tl::detail::at(ab, i), want[i]) << i;
  auto c = tl::cat(b, a);
  EXPECT_EQ(tl::detail::at(c, 0), 10);
  EXPECT_EQ(tl::detail::at(c, 1), 0);
  auto m = tl::expand_dims<1>(tl::arange<0, 2>()) * 10 + tl::expand_dims<0>(tl::arange<0, 4>());
  auto w = tl::interleave(m, -m); // [2, 8]
  static_assert(std::is_same_v<decltype(w), tl::tile<int, 2, 8>>);
  EXPECT_EQ(tl::detail::at(w, 9), -10); // row 1: 10, -10, 11, -11, ...
  auto flat = tl::ravel(m);
  static_assert(std::is_same_v<decltype(flat), tl::tile<int, 8>>);
  EXPECT_EQ(tl::detail::at(flat, 5), 11);
}
