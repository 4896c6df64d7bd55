// tl::dot of fp8 tiles in the interpreter: float results, the documented order bit for bit
// (each operand converted to float, one fma per product), random products against a double
// reference, and the GPU tests' kernels (tests/gpu/kernels) on sizes that are not multiples
// of their blocks, with poisoned outputs.
#include "support.h"

#include "dot.cpp"
#include "fp8.cpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace tilec_test;

namespace {

/// n random fp8 values: floats in [lo, hi) rounded to T.
template <class T> std::vector<T> random_fp8(int n, float lo, float hi, unsigned seed) {
  auto f = random_floats(n, lo, hi, seed);
  return std::vector<T>(f.begin(), f.end());
}

template <class Tile, class V> Tile tile_of(const std::vector<V> &v) {
  Tile t;
  for (int i = 0; i < Tile::numel; ++i)
    t.elems[i] = typename Tile::element_type(v[size_t(i)]);
  return t;
}

/// dot(a, b, acc) element by element: acc, then fmaf(float(a), float(b), r) for k = 0, 1, ...
template <class T, int M, int K, int N>
void expect_sequential_fma(const tl::tile<T, M, K> &a, const tl::tile<T, K, N> &b,
                           const tl::tile<float, M, N> &acc, const tl::tile<float, M, N> &got) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float r = acc.elems[i * N + j];
      for (int k = 0; k < K; ++k)
        r = std::fma(float(a.elems[i * K + k]), float(b.elems[k * N + j]), r);
      ASSERT_TRUE(same_bits(got.elems[i * N + j], r)) << "at " << i << ", " << j;
    }
}

template <class T, int M, int K, int N> void check_random(unsigned seed) {
  SCOPED_TRACE(testing::Message() << M << "x" << N << "x" << K);
  // a spans many binades (e4m3 steps of 16 near 300; e5m2 keeps 2 mantissa bits).
  auto a = tile_of<tl::tile<T, M, K>>(random_fp8<T>(M * K, -300.0f, 300.0f, seed));
  auto b = tile_of<tl::tile<T, K, N>>(random_fp8<T>(K * N, -2.0f, 2.0f, seed + 1));
  auto acc = tile_of<tl::tile<float, M, N>>(random_floats(M * N, -50.0f, 50.0f, seed + 2));
  expect_sequential_fma(a, b, tl::zeros<float, M, N>(), tl::dot(a, b));
  expect_sequential_fma(a, b, acc, tl::dot(a, b, acc));
  // Products of fp8 values are exact in float: only the K additions round.
  auto got = tl::dot(a, b, acc);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = acc.elems[i * N + j], mag = std::fabs(want);
      for (int k = 0; k < K; ++k) {
        double p = double(float(a.elems[i * K + k])) * double(float(b.elems[k * N + j]));
        want += p, mag += std::fabs(p);
      }
      ASSERT_LE(std::fabs(got.elems[i * N + j] - want), (K + 1) * 0x1p-24 * mag) << i << ", " << j;
    }
}

template <class T> void check_shapes() {
  check_random<T, 16, 32, 16>(1);
  check_random<T, 64, 32, 32>(2);
  check_random<T, 32, 128, 16>(3); // long K
  check_random<T, 16, 16, 8>(4);   // shapes the GPU does not take: the interpreter does
}

template <class T> double as_double(T x) { return double(float(x)); }

/// c (m x n, then guards) against the double product of a (m x k) and b (k x n).
template <class T>
void expect_product(const std::vector<T> &a, const std::vector<T> &b, const Rows<float> &c, int m,
                    int n, int k, double scale = 1.0) {
  EXPECT_TRUE(c.guards_intact());
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        double x = as_double(a[size_t(i) * k + p]) * as_double(b[size_t(p) * n + j]);
        want += x, mag += std::fabs(x);
      }
      ASSERT_NEAR(c.at(0, i * n + j), scale * want, scale * (k + 1) * 0x1p-24 * mag)
          << i << ", " << j;
    }
}

template <class T> std::vector<T> transposed(const std::vector<T> &x, int rows, int cols) {
  std::vector<T> t(x.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      t[size_t(c) * rows + r] = x[size_t(r) * cols + c];
  return t;
}

template <class T> void check_kernels() {
  const int m = 50, n = 37, k = 70; // not multiples of any block below
  auto a = random_fp8<T>(m * k, -4.0f, 4.0f, 11), b = random_fp8<T>(k * n, -4.0f, 4.0f, 12);
  {
    Rows<float> c(1, m * n);
    tilec::interpret::launch(dot_loop<32, 16, 32, T, float>, tilec::Grid{2, 3}, a.data(), b.data(),
                             c.data(), m, n, k);
    SCOPED_TRACE("dot_loop");
    expect_product(a, b, c, m, n, k);
  }
  {
    Rows<float> c(1, m * n);
    auto at = transposed(a, m, k), bt = transposed(b, k, n);
    tilec::interpret::launch(dot_loop_t<64, 64, 32, T, float, true, true>, tilec::Grid{1, 1},
                             at.data(), bt.data(), c.data(), m, n, k);
    SCOPED_TRACE("dot_loop_t");
    expect_product(a, b, c, m, n, k);
  }
  {
    Rows<float> c(1, m * n);
    auto bt = transposed(b, k, n);
    tilec::interpret::launch(dot_loop_bt<16, 32, 64, T, float>, tilec::Grid{4, 2}, a.data(),
                             bt.data(), c.data(), m, n, k);
    SCOPED_TRACE("dot_loop_bt");
    expect_product(a, b, c, m, n, k);
  }
  {
    const int tm = 20, tn = 30, tk = 50; // one tile, partly masked
    Rows<float> c(1, tm * tn);
    tilec::interpret::launch(dot_tile<32, 32, 64, T, float, false>, tilec::Grid{1}, a.data(),
                             b.data(), c.data(), tm, tn, tk);
    SCOPED_TRACE("dot_tile");
    expect_product(std::vector<T>(a.begin(), a.begin() + tm * tk),
                   std::vector<T>(b.begin(), b.begin() + tk * tn), c, tm, tn, tk);
  }
  {
    // quantized_dot rounds float operands itself: the reference takes them rounded alike.
    const int qm = 30, qn = 20, qk = 40;
    auto fa = random_floats(qm * qk, -3.0f, 3.0f, 13), fb = random_floats(qk * qn, -3.0f, 3.0f, 14);
    Rows<float> c(1, qm * qn);
    tilec::interpret::launch(quantized_dot<32, 32, 64, T>, tilec::Grid{1}, fa.data(), fb.data(),
                             c.data(), 0.5f, qm, qn, qk);
    SCOPED_TRACE("quantized_dot");
    expect_product(std::vector<T>(fa.begin(), fa.end()), std::vector<T>(fb.begin(), fb.end()), c,
                   qm, qn, qk, 0.5);
  }
}

} // namespace

TEST(Fp8Dot, ResultTypes) {
  using tl::tile;
  using E4 = tl::float8_e4m3;
  using E5 = tl::float8_e5m2;
  static_assert(
      std::is_same_v<decltype(tl::dot(tile<E4, 16, 32>{}, tile<E4, 32, 8>{})), tile<float, 16, 8>>);
  static_assert(std::is_same_v<decltype(tl::dot(tile<E5, 16, 32>{}, tile<E5, 32, 16>{},
                                                tile<float, 16, 16>{})),
                               tile<float, 16, 16>>);
}

TEST(Fp8Dot, E4M3) { check_shapes<tl::float8_e4m3>(); }
TEST(Fp8Dot, E5M2) { check_shapes<tl::float8_e5m2>(); }

// Saturated operands enter the product as what they hold: 448 for e4m3.
TEST(Fp8Dot, SaturatedOperands) {
  auto a = tl::full<tl::float8_e4m3, 16, 32>(1000.0f);
  auto b = tl::full<tl::float8_e4m3, 32, 16>(-0.5f);
  EXPECT_EQ(tl::dot(a, b).elems[0], 32 * 448.0f * -0.5f);
}

TEST(Fp8Dot, GpuTestKernelsE4M3) { check_kernels<tl::float8_e4m3>(); }
TEST(Fp8Dot, GpuTestKernelsE5M2) { check_kernels<tl::float8_e5m2>(); }
