// C++ operators on tiles: arithmetic, comparisons, logical, unary and compound assignment,
// with tiles and scalars on either side.
#include "support.h"

#include <gtest/gtest.h>

using namespace tilec_test;

// Row k of out holds result k.
template <int BLOCK>
TILEC_KERNEL void float_ops_kernel(const float *x, const float *y, float *out, int stride, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask, 1.0f);
  tl::store(out + 0 * stride + offs, a + b, mask);
  tl::store(out + 1 * stride + offs, a - b, mask);
  tl::store(out + 2 * stride + offs, a * b, mask);
  tl::store(out + 3 * stride + offs, a / b, mask);
  tl::store(out + 4 * stride + offs, a % b, mask);
  tl::store(out + 5 * stride + offs, -a, mask);
  tl::store(out + 6 * stride + offs, 2.0f * a - b / 4.0f, mask);
  auto c = a;
  c += b;
  c *= 3.0f;
  c -= a;
  c /= 2;
  tl::store(out + 7 * stride + offs, c, mask);
}

TEST(Arithmetic, Float) {
  for (int n : kSizes) {
    auto x = random_floats(n, -8.f, 8.f, 11);
    auto y = random_nonzero(n, 0.25f, 4.f, 12);
    Rows<float> out(8, n);
    tilec::interpret::launch(float_ops_kernel<512>, grid_for(n, 512), x.data(), y.data(),
                             out.data(), out.stride(), n);
    for (int i = 0; i < n; ++i) {
      float a = x[i], b = y[i];
      ASSERT_EQ(out.at(0, i), a + b) << i;
      ASSERT_EQ(out.at(1, i), a - b) << i;
      ASSERT_EQ(out.at(2, i), a * b) << i;
      ASSERT_EQ(out.at(3, i), a / b) << i;
      ASSERT_EQ(out.at(4, i), std::fmod(a, b)) << i;
      ASSERT_EQ(out.at(5, i), -a) << i;
      ASSERT_EQ(out.at(6, i), 2.0f * a - b / 4.0f) << i;
      float c = ((a + b) * 3.0f - a) / 2;
      ASSERT_EQ(out.at(7, i), c) << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

template <int BLOCK>
TILEC_KERNEL void compare_kernel(const float *x, const float *y, uint8_t *out, int stride, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  tl::store(out + 0 * stride + offs, a < b, mask);
  tl::store(out + 1 * stride + offs, a <= b, mask);
  tl::store(out + 2 * stride + offs, a > b, mask);
  tl::store(out + 3 * stride + offs, a >= b, mask);
  tl::store(out + 4 * stride + offs, a == b, mask);
  tl::store(out + 5 * stride + offs, a != b, mask);
  tl::store(out + 6 * stride + offs, (a > 0.0f) && (b > 0.0f), mask);
  tl::store(out + 7 * stride + offs, (a > 0.0f) || !(b > 0.0f), mask);
  tl::store(out + 8 * stride + offs, 0.5f < a, mask); // scalar on the left
}

TEST(Arithmetic, ComparisonsAndLogical) {
  for (int n : kSizes) {
    auto x = random_ints<float>(n, -3, 3, 13); // small integers so that ties occur
    auto y = random_ints<float>(n, -3, 3, 14);
    Rows<uint8_t> out(9, n);
    tilec::interpret::launch(compare_kernel<256>, grid_for(n, 256), x.data(), y.data(), out.data(),
                             out.stride(), n);
    for (int i = 0; i < n; ++i) {
      float a = x[i], b = y[i];
      ASSERT_EQ(out.at(0, i), a < b) << i;
      ASSERT_EQ(out.at(1, i), a <= b) << i;
      ASSERT_EQ(out.at(2, i), a > b) << i;
      ASSERT_EQ(out.at(3, i), a >= b) << i;
      ASSERT_EQ(out.at(4, i), a == b) << i;
      ASSERT_EQ(out.at(5, i), a != b) << i;
      ASSERT_EQ(out.at(6, i), a > 0 && b > 0) << i;
      ASSERT_EQ(out.at(7, i), a > 0 || !(b > 0)) << i;
      ASSERT_EQ(out.at(8, i), 0.5f < a) << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

// Half tiles compute in float and round each result back to half.
template <int BLOCK>
TILEC_KERNEL void half_ops_kernel(const tl::half *x, const tl::half *y, tl::half *out, float *fout,
                                  int stride, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask, 1.0f);
  tl::store(out + 0 * stride + offs, a * b + a, mask); // two roundings to half
  tl::store(out + 1 * stride + offs, a + 1.5f, mask);  // stays half
  tl::store(fout + offs, a / b, mask);                 // '/' on half computes in float
}

TEST(Arithmetic, Half) {
  for (int n : kSizes) {
    auto xf = random_floats(n, -4.f, 4.f, 15);
    auto yf = random_nonzero(n, 0.5f, 4.f, 16);
    std::vector<tl::half> x(xf.begin(), xf.end()), y(yf.begin(), yf.end());
    Rows<tl::half> out(2, n);
    Rows<float> fout(1, n);
    tilec::interpret::launch(half_ops_kernel<128>, grid_for(n, 128), x.data(), y.data(), out.data(),
                             fout.data(), out.stride(), n);
    for (int i = 0; i < n; ++i) {
      float a = x[i], b = y[i];
      tl::half prod = tl::half(a * b);
      ASSERT_EQ(out.at(0, i).bits, tl::half(float(prod) + a).bits) << i;
      ASSERT_EQ(out.at(1, i).bits, tl::half(a + 1.5f).bits) << i;
      ASSERT_EQ(fout.at(0, i), a / b) << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
    EXPECT_TRUE(fout.guards_intact()) << n;
  }
}

// A rank-1 tile of size 1 broadcasts against any size.
template <int BLOCK>
TILEC_KERNEL void broadcast_kernel(const float *x, const float *s, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto one = tl::load(s + tl::arange<0, 1>()); // tile<float, 1>
  auto a = tl::load(x + offs, mask);
  tl::store(out + offs, a * one + one, mask);
}

TEST(Arithmetic, BroadcastSizeOne) {
  for (int n : kSizes) {
    auto x = random_floats(n, -2.f, 2.f, 17);
    float s = 1.75f;
    Rows<float> out(1, n);
    tilec::interpret::launch(broadcast_kernel<64>, grid_for(n, 64), x.data(), &s, out.data(), n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out.at(0, i), x[i] * s + s) << i;
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

TEST(Arithmetic, TilesAreValues) {
  auto a = tl::arange<0, 8>();
  auto b = a; // copy
  b += 10;
  a = a * 2; // reassign
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(tl::detail::at(a, i), 2 * i);
    EXPECT_EQ(tl::detail::at(b, i), i + 10);
  }
  auto t = tl::arange<0, 4>().to<float>() * 0.5f;
  static_assert(std::is_same_v<decltype(t), tl::tile<float, 4>>);
  EXPECT_EQ(tl::detail::at(t, 3), 1.5f);
}

// Rank 2 is not part of the rank-1 vocabulary yet, but tiles and broadcasting already
// handle it: [4, 8] with [1, 8] and with [4, 1].
TEST(Arithmetic, RankTwoBroadcasting) {
  tl::tile<float, 4, 8> a;
  tl::tile<float, 1, 8> row;
  tl::tile<int32_t, 4, 1> col;
  for (int i = 0; i < 32; ++i)
    a.elems[i] = float(i);
  for (int j = 0; j < 8; ++j)
    row.elems[j] = float(100 * j);
  for (int i = 0; i < 4; ++i)
    col.elems[i] = 1000 * i;
  auto r = a + row + col;
  static_assert(std::is_same_v<decltype(r), tl::tile<float, 4, 8>>);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      ASSERT_EQ(tl::detail::at(r, i * 8 + j), float(i * 8 + j + 100 * j + 1000 * i));
  auto outer = row + col; // [1, 8] with [4, 1] -> [4, 8]
  static_assert(std::is_same_v<decltype(outer), tl::tile<float, 4, 8>>);
  EXPECT_EQ(tl::detail::at(outer, 3 * 8 + 5), 3500.0f);
}
