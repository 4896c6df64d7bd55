// tl::dot: result types, random products against a double reference (half, bfloat16,
// float in tf32 and ieee, double, int8) with and without an accumulator, the documented
// summation order bit for bit, tf32 rounding, and dot inside a kernel with masked loads.
#include "support.h"

#include <cfloat>
#include <cmath>
#include <gtest/gtest.h>

using namespace tilec_test;

namespace {

/// A tile filled from `values` (row-major), each converted to the element type.
template <class Tile, class V> Tile tile_from(const std::vector<V> &values) {
  Tile t;
  for (int i = 0; i < Tile::numel; ++i)
    t.elems[i] = typename Tile::element_type(values[i]);
  return t;
}

/// A random [R, C] tile of T, values in [-1, 1) (int8: [-128, 127]).
template <class T, int R, int C> tl::tile<T, R, C> random_tile(unsigned seed) {
  if constexpr (std::is_integral_v<T>)
    return tile_from<tl::tile<T, R, C>>(random_ints<T>(R * C, -128, 127, seed));
  else
    return tile_from<tl::tile<T, R, C>>(random_floats(R * C, -1.0f, 1.0f, seed));
}

/// The value an operand enters the product with (tf32-rounded floats when asked).
template <class T> double operand(T v, bool tf32) {
  if constexpr (std::is_same_v<T, float>)
    return tf32 ? double(tl::detail::round_to_tf32(v)) : double(v);
  else
    return double(tl::detail::compute_t<T>(v));
}

/// Checks dot(a, b, acc) against a double reference: |got - want| is within the error of
/// K + 1 roundings of the accumulation type, relative to sum |acc| + |a| |b| of the element.
template <class T, int M, int K, int N, class R>
void check_against_double(const tl::tile<T, M, K> &a, const tl::tile<T, K, N> &b,
                          const R &acc, const R &got, bool tf32) {
  using Acc = typename R::element_type;
  const double unit = std::is_same_v<Acc, double> ? 0x1p-53 : 0x1p-24;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = double(acc.elems[i * N + j]), mag = std::fabs(want);
      for (int k = 0; k < K; ++k) {
        double p = operand(a.elems[i * K + k], tf32) * operand(b.elems[k * N + j], tf32);
        want += p;
        mag += std::fabs(p);
      }
      const double got_ij = double(got.elems[i * N + j]);
      if (std::is_integral_v<Acc>)
        ASSERT_EQ(got_ij, want) << "at " << i << ", " << j;
      else
        ASSERT_LE(std::fabs(got_ij - want), (K + 1) * unit * mag) << "at " << i << ", " << j;
    }
}

/// dot with and without a random accumulator for one element type and shape.
template <class T, int M, int K, int N> void check_random(unsigned seed) {
  SCOPED_TRACE(testing::Message() << M << "x" << N << "x" << K << " " << sizeof(T) << "-byte");
  auto a = random_tile<T, M, K>(seed);
  auto b = random_tile<T, K, N>(seed + 1);
  using R = typename tl::detail::dot_types<decltype(a), decltype(b)>::result;
  const R zero{};
  check_against_double(a, b, zero, tl::dot(a, b), std::is_same_v<T, float>);
  R acc;
  if constexpr (std::is_integral_v<typename R::element_type>)
    acc = tile_from<R>(random_ints<int32_t>(M * N, -100000, 100000, seed + 2));
  else
    acc = tile_from<R>(random_floats(M * N, -4.0f, 4.0f, seed + 2));
  check_against_double(a, b, acc, tl::dot(a, b, acc), std::is_same_v<T, float>);
}

template <class T> void check_shapes() {
  check_random<T, 16, 16, 16>(1);
  check_random<T, 32, 16, 64>(2); // M=32, N=64, K=16
  check_random<T, 64, 32, 16>(3);
  check_random<T, 16, 128, 32>(4); // long K
  check_random<T, 128, 16, 16>(5);
}

} // namespace

TEST(Dot, ResultTypes) {
  using tl::tile;
  static_assert(std::is_same_v<decltype(tl::dot(tile<tl::half, 16, 32>{}, tile<tl::half, 32, 8>{})),
                               tile<float, 16, 8>>);
  static_assert(std::is_same_v<decltype(tl::dot(tile<tl::bfloat16, 16, 16>{},
                                                tile<tl::bfloat16, 16, 64>{})),
                               tile<float, 16, 64>>);
  static_assert(std::is_same_v<decltype(tl::dot(tile<float, 32, 16>{}, tile<float, 16, 16>{})),
                               tile<float, 32, 16>>);
  static_assert(std::is_same_v<decltype(tl::dot(tile<double, 16, 16>{}, tile<double, 16, 16>{})),
                               tile<double, 16, 16>>);
  static_assert(std::is_same_v<decltype(tl::dot(tile<int8_t, 16, 32>{}, tile<int8_t, 32, 16>{})),
                               tile<int32_t, 16, 16>>);
  static_assert(std::is_same_v<decltype(tl::dot(tile<tl::half, 16, 16>{}, tile<tl::half, 16, 16>{},
                                                tile<float, 16, 16>{}, tl::precision::ieee)),
                               tile<float, 16, 16>>);
}

TEST(Dot, Half) { check_shapes<tl::half>(); }
TEST(Dot, Bfloat16) { check_shapes<tl::bfloat16>(); }
TEST(Dot, FloatTf32) { check_shapes<float>(); }
TEST(Dot, Double) { check_shapes<double>(); }
TEST(Dot, Int8) { check_shapes<int8_t>(); }

TEST(Dot, FloatIeee) {
  auto a = random_tile<float, 32, 64>(7);
  auto b = random_tile<float, 64, 16>(8);
  tl::tile<float, 32, 16> zero{};
  check_against_double(a, b, zero, tl::dot(a, b, zero, tl::precision::ieee), /*tf32=*/false);
}

// Each element is acc + a[i, 0] * b[0, j] + a[i, 1] * b[1, j] + ..., one fma at a time.
TEST(Dot, SummationOrder) {
  auto a = random_tile<float, 16, 32>(11);
  auto b = random_tile<float, 32, 16>(12);
  auto acc = tile_from<tl::tile<float, 16, 16>>(random_floats(256, -1.0f, 1.0f, 13));
  auto got = tl::dot(a, b, acc, tl::precision::ieee);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float r = acc.elems[i * 16 + j];
      for (int k = 0; k < 32; ++k)
        r = std::fma(a.elems[i * 32 + k], b.elems[k * 16 + j], r);
      ASSERT_TRUE(same_bits(got.elems[i * 16 + j], r)) << "at " << i << ", " << j;
    }
}

TEST(Dot, Tf32Rounding) {
  using tl::detail::round_to_tf32;
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-12f), 1.0f);                   // below half a unit
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-11f), 1.0f + 0x1p-10f);        // a tie: away from zero
  EXPECT_EQ(round_to_tf32(-(1.0f + 0x1p-11f)), -(1.0f + 0x1p-10f));  // the same for negatives
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-10f + 0x1p-11f), 1.0f + 0x1p-9f);
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-11f - 0x1p-23f), 1.0f);
  EXPECT_EQ(round_to_tf32(2.0f - 0x1p-23f), 2.0f);                    // carries into the exponent
  EXPECT_EQ(round_to_tf32(FLT_MAX), INFINITY);                        // above the largest tf32
  EXPECT_EQ(round_to_tf32(-INFINITY), -INFINITY);
  EXPECT_TRUE(std::isnan(round_to_tf32(NAN)));
  // Subnormals keep the bits from 2^-136 up (13 of float's 2^-149 units are dropped).
  EXPECT_EQ(round_to_tf32(0x1p-130f + 0x1p-145f), 0x1p-130f);
  EXPECT_EQ(round_to_tf32(0x1p-137f), 0x1p-136f); // a tie again
}

// 1 + 2^-12 is below half a tf32 unit above 1: tf32 drops it, ieee keeps it.
TEST(Dot, Tf32DiffersFromIeee) {
  auto a = tl::full<float, 16, 16>(1.0f + 0x1p-12f);
  auto b = tl::full<float, 16, 16>(1.0f);
  auto tf32 = tl::dot(a, b);
  auto ieee = tl::dot(a, b, tl::zeros<float, 16, 16>(), tl::precision::ieee);
  for (int i = 0; i < 256; ++i) {
    ASSERT_EQ(tf32.elems[i], 16.0f);
    ASSERT_EQ(ieee.elems[i], 16.0f + 0x1p-8f);
  }
  // Precision is ignored for inputs that are not float.
  auto h = tl::full<tl::half, 16, 16>(1.0f + 0x1p-10f);
  auto hp = tl::dot(h, h, tl::zeros<float, 16, 16>(), tl::precision::tf32);
  EXPECT_EQ(hp.elems[0], 16.0f * (1.0f + 0x1p-10f) * (1.0f + 0x1p-10f));
}

// int8 products sum in int32 and wrap as on the GPU.
TEST(Dot, Int8Wraps) {
  auto a = tl::full<int8_t, 16, 16>(int8_t(-128));
  auto acc = tl::full<int32_t, 16, 16>(INT32_MIN + 5);
  auto r = tl::dot(a, a, acc); // 16 * 16384 = 262144 added to INT32_MIN + 5
  EXPECT_EQ(r.elems[0], INT32_MIN + 5 + 262144);
  auto wrap = tl::dot(a, a, tl::full<int32_t, 16, 16>(INT32_MAX));
  EXPECT_EQ(wrap.elems[7], int32_t(uint32_t(INT32_MAX) + 262144u));
}

namespace {

// c = a @ b^T for an [m, k] a and an [n, k] b, as attention kernels multiply by keys:
// masked loads at the edges, tl::trans on the second operand, half inputs.
template <int BM, int BN, int BK>
TILEC_KERNEL void dot_abt(const tl::half *a, const tl::half *b, float *c, int m, int n, int k) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto ka = tl::expand_dims<0>(rk) + k0;
    auto at = tl::load(a + tl::expand_dims<1>(rm) * k + ka,
                       (tl::expand_dims<1>(rm) < m) && (ka < k));
    auto bt = tl::load(b + tl::expand_dims<1>(rn) * k + ka,
                       (tl::expand_dims<1>(rn) < n) && (ka < k));
    acc = tl::dot(at, tl::trans(bt), acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * n + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rn) < n));
}

} // namespace

TEST(Dot, InKernelWithMasks) {
  const int m = 37, n = 21, k = 45;
  auto fa = random_floats(m * k, -1.0f, 1.0f, 21), fb = random_floats(n * k, -1.0f, 1.0f, 22);
  std::vector<tl::half> a(fa.begin(), fa.end()), b(fb.begin(), fb.end());
  Rows<float> out(1, m * n); // dense [m, n], then poisoned guard elements
  tilec::interpret::launch(dot_abt<16, 16, 16>, tilec::Grid{3, 2}, a.data(), b.data(),
                           out.data(), m, n, k);
  EXPECT_TRUE(out.guards_intact());
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0, mag = 0;
      for (int kk = 0; kk < k; ++kk) {
        double p = double(float(a[i * k + kk])) * double(float(b[j * k + kk]));
        want += p;
        mag += std::fabs(p);
      }
      ASSERT_NEAR(out.at(0, i * n + j), want, (k + 1) * 0x1p-24 * mag) << i << ", " << j;
    }
}
