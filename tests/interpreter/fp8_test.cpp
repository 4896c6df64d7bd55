// tl::float8_e4m3 and tl::float8_e5m2: conversions against references written from the
// formats' definitions (every bit pattern, every midpoint), saturation, NaN, signed zeros,
// the types arithmetic gives (fp8 computes in float), and loads, stores and casts in a kernel.
#include "support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tilec_test;

namespace {

/// What the references need to know of a format.
struct Format {
  int man_bits, bias;
  bool has_inf;      // e5m2: exponent all ones is infinity (mantissa 0) or NaN
  uint8_t max_bits;  // the largest finite value's code
  uint8_t next_bits; // the code just above it (NaN or infinity), as if it were a number
};
constexpr Format kE4M3 = {3, 7, false, 0x7e, 0x7f};
constexpr Format kE5M2 = {2, 15, true, 0x7b, 0x7c};

bool is_nan_code(const Format &f, uint8_t b) {
  const int mag = b & 0x7f;
  return f.has_inf ? mag > 0x7c : mag == 0x7f;
}

/// The value of a code read as sign, exponent, mantissa (no special cases but zero).
double code_value(const Format &f, int b) {
  const int mag = b & 0x7f, exp = mag >> f.man_bits, man = mag & ((1 << f.man_bits) - 1);
  const double scale = std::ldexp(1.0, f.man_bits);
  const double v =
      exp == 0 ? std::ldexp(man / scale, 1 - f.bias) : std::ldexp(1.0 + man / scale, exp - f.bias);
  return (b & 0x80) ? -v : v;
}

/// Reference decoding: exact values, infinities, NaNs.
double ref_decode(const Format &f, uint8_t b) {
  if (is_nan_code(f, b))
    return std::numeric_limits<double>::quiet_NaN();
  if (f.has_inf && (b & 0x7f) == 0x7c)
    return (b & 0x80) ? -INFINITY : INFINITY;
  return code_value(f, b);
}

/// Reference encoding: the nearest code by distance (ties to the even code), where the code
/// above the largest finite value counts as a number and saturates back to the largest.
uint8_t ref_encode(const Format &f, float x) {
  if (std::isnan(x))
    return 0x7f;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (std::isinf(x))
    return sign | f.max_bits;
  const double a = std::fabs(double(x));
  int best = 0;
  double best_d = INFINITY;
  for (int c = 0; c <= f.next_bits; ++c) {
    const double d = std::fabs(code_value(f, c) - a);
    if (d < best_d || (d == best_d && (c & 1) == 0 && (best & 1) == 1))
      best = c, best_d = d;
  }
  return uint8_t(sign | (best > f.max_bits ? f.max_bits : best));
}

template <class T> uint8_t encode(float x) { return T(x).bits; }
template <class T> float decode(uint8_t b) { return float(T::from_bits(b)); }
template <class T> const Format &format_of() {
  return std::is_same_v<T, tl::float8_e4m3> ? kE4M3 : kE5M2;
}

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

template <class T> class Fp8 : public testing::Test {};
using Fp8Types = testing::Types<tl::float8_e4m3, tl::float8_e5m2>;
TYPED_TEST_SUITE(Fp8, Fp8Types);

} // namespace

// Every code decodes to its value; every number encodes back to its own code.
TYPED_TEST(Fp8, AllCodesRoundTrip) {
  const Format &f = format_of<TypeParam>();
  for (int b = 0; b < 256; ++b) {
    const float v = decode<TypeParam>(uint8_t(b));
    const double want = ref_decode(f, uint8_t(b));
    if (std::isnan(want)) {
      ASSERT_EQ(bits_of(v), 0x7fffffffu) << "code " << b; // CUDA's NaN, sign dropped
      ASSERT_EQ(encode<TypeParam>(v), 0x7f) << "code " << b;
      continue;
    }
    ASSERT_EQ(double(v), want) << "code " << b;
    ASSERT_EQ(std::signbit(v), (b & 0x80) != 0) << "code " << b; // -0 stays -0
    if (std::isinf(want))
      ASSERT_EQ(encode<TypeParam>(v), (b & 0x80) | f.max_bits) << "code " << b; // saturates
    else
      ASSERT_EQ(encode<TypeParam>(v), b) << "code " << b;
  }
}

// Midpoints between neighbouring codes (ties to even), and the floats just beside them.
TYPED_TEST(Fp8, MidpointsRoundToNearestEven) {
  const Format &f = format_of<TypeParam>();
  for (int c = 0; c < f.next_bits; ++c) {
    for (float sign : {1.0f, -1.0f}) {
      const float mid = sign * float((code_value(f, c) + code_value(f, c + 1)) / 2);
      for (float x : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, sign * INFINITY)}) {
        ASSERT_EQ(encode<TypeParam>(x), ref_encode(f, x)) << "x = " << x;
      }
      int even = c % 2 == 0 ? c : c + 1; // the even code of the two, saturated
      if (even > f.max_bits)
        even = f.max_bits;
      ASSERT_EQ(encode<TypeParam>(mid), (sign < 0 ? 0x80 : 0) | even) << "mid " << mid;
    }
  }
}

// Random floats over every binade the format has (and beyond, both ways).
TYPED_TEST(Fp8, RandomFloatsMatchTheReference) {
  const Format &f = format_of<TypeParam>();
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> exp(-30, 20);
  for (int i = 0; i < 100000; ++i) {
    float x = std::ldexp(mant(gen), exp(gen)) * (i % 2 ? -1.0f : 1.0f);
    ASSERT_EQ(encode<TypeParam>(x), ref_encode(f, x)) << "x = " << x;
  }
}

TEST(Fp8Conversions, E4M3SaturatesAt448) {
  using T = tl::float8_e4m3;
  EXPECT_EQ(encode<T>(1.0f), 0x38);
  EXPECT_EQ(encode<T>(448.0f), 0x7e);
  EXPECT_EQ(encode<T>(464.0f), 0x7e); // the midpoint to 480 (which would be 0x7f): to even
  EXPECT_EQ(encode<T>(465.0f), 0x7e); // rounds past 448: saturates, not NaN
  EXPECT_EQ(encode<T>(1e30f), 0x7e);
  EXPECT_EQ(encode<T>(INFINITY), 0x7e);
  EXPECT_EQ(encode<T>(-500.0f), 0xfe);
  EXPECT_EQ(encode<T>(-INFINITY), 0xfe);
  EXPECT_EQ(decode<T>(0x7e), 448.0f);
  EXPECT_EQ(decode<T>(0x01), 0x1p-9f); // the smallest subnormal
  EXPECT_EQ(decode<T>(0x08), 0x1p-6f); // the smallest normal
}

TEST(Fp8Conversions, E5M2SaturatesAt57344) {
  using T = tl::float8_e5m2;
  EXPECT_EQ(encode<T>(1.0f), 0x3c);
  EXPECT_EQ(encode<T>(57344.0f), 0x7b);
  EXPECT_EQ(encode<T>(61439.0f), 0x7b);
  EXPECT_EQ(encode<T>(61440.0f), 0x7b); // the midpoint to 65536 rounds to even: saturates
  EXPECT_EQ(encode<T>(INFINITY), 0x7b); // CUDA's default (satfinite) never gives infinity
  EXPECT_EQ(encode<T>(-INFINITY), 0xfb);
  EXPECT_EQ(decode<T>(0x7c), INFINITY); // but the code reads as one
  EXPECT_EQ(decode<T>(0xfc), -INFINITY);
  EXPECT_EQ(decode<T>(0x01), 0x1p-16f);
}

TEST(Fp8Conversions, NaN) {
  for (float nan : {NAN, -NAN, std::numeric_limits<float>::signaling_NaN()}) {
    EXPECT_EQ(encode<tl::float8_e4m3>(nan), 0x7f);
    EXPECT_EQ(encode<tl::float8_e5m2>(nan), 0x7f);
  }
  for (int b : {0x7f, 0xff})
    EXPECT_TRUE(std::isnan(decode<tl::float8_e4m3>(uint8_t(b)))) << b;
  for (int b : {0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff})
    EXPECT_TRUE(std::isnan(decode<tl::float8_e5m2>(uint8_t(b)))) << b;
}

TEST(Fp8Conversions, UnderflowKeepsTheSign) {
  using A = tl::float8_e4m3;
  using B = tl::float8_e5m2;
  EXPECT_EQ(encode<A>(0x1p-10f), 0x00);  // half the smallest: a tie, to 0
  EXPECT_EQ(encode<A>(-0x1p-10f), 0x80); // to -0
  EXPECT_EQ(encode<A>(std::nextafter(0x1p-10f, 1.0f)), 0x01);
  EXPECT_EQ(encode<A>(3 * 0x1p-10f), 0x02); // 1.5 units: a tie, to the even 2
  EXPECT_EQ(encode<A>(-0.0f), 0x80);
  EXPECT_EQ(encode<A>(1e-30f), 0x00);
  EXPECT_EQ(encode<A>(std::numeric_limits<float>::denorm_min()), 0x00);
  EXPECT_EQ(encode<B>(0x1p-17f), 0x00);
  EXPECT_EQ(encode<B>(-3 * 0x1p-17f), 0x82);
  EXPECT_TRUE(std::signbit(decode<A>(0x80)));
}

// fp8 is a storage type: arithmetic gives float; casts and stores round once.
TEST(Fp8Conversions, ArithmeticComputesInFloat) {
  using tl::tile;
  using E4 = tl::float8_e4m3;
  using E5 = tl::float8_e5m2;
  static_assert(std::is_same_v<decltype(tile<E4, 8>{} + tile<E4, 8>{}), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tile<E4, 8>{} * tile<E5, 8>{}), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tile<E5, 8>{} * 2.0), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tile<E4, 8>{} + tile<double, 8>{}), tile<double, 8>>);
  static_assert(std::is_same_v<decltype(tile<E4, 8>{} < tile<tl::half, 8>{}), tile<bool, 8>>);
  static_assert(std::is_same_v<decltype(-tile<E4, 8>{}), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tl::exp(tile<E5, 8>{})), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tl::abs(tile<E4, 8>{})), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tl::maximum(tile<E4, 8>{}, 0)), tile<float, 8>>);
  static_assert(
      std::is_same_v<decltype(tl::where(tile<bool, 8>{}, tile<E4, 8>{}, 0.0f)), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tl::sum(tile<E4, 8>{})), float>);
  static_assert(std::is_same_v<decltype(tl::max<0>(tile<E5, 4, 8>{})), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tl::cumsum(tile<E4, 8>{})), tile<float, 8>>);
  static_assert(std::is_same_v<decltype(tl::cast<E5>(tile<E4, 8>{})), tile<E5, 8>>);
  // 1.125 is e4m3; its sum with itself is computed in float, not rounded to fp8.
  auto x = tl::full<E4, 8>(1.125f);
  EXPECT_EQ((x + x * 0.125f).elems[3], 1.125f + 1.125f * 0.125f);
  EXPECT_EQ(tl::cast<E5>(x).elems[0].bits, E5(1.125f).bits); // 1.125 -> 1.0 (ties to even)
  EXPECT_EQ(float(tl::cast<E5>(x).elems[0]), 1.0f);
  EXPECT_EQ(tl::cast<int32_t>(tl::full<E4, 2>(-3.75f)).elems[1], -3); // toward zero
  EXPECT_EQ(tl::argmax(tl::cast<E4>(tl::arange<0, 16>() % 5)), 4);
}

namespace {

// y = fp8(x), back = float(y) * 2, masked; the fp8 bits also go out as uint8.
template <class T, int BLOCK>
TILEC_KERNEL void quantize(const float *x, T *y, float *back, uint8_t *bits, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(y + offs, tl::load(x + offs, mask), mask); // the store converts
  auto q = tl::load(y + offs, mask, 0);
  tl::store(back + offs, q * 2, mask);
  tl::store(bits + offs, tl::bitcast<uint8_t>(q), mask);
}

template <class T> void check_quantize() {
  for (int n : kSizes) {
    auto x = random_floats(n, -600.0f, 600.0f, 3);
    x[0] = NAN;
    Rows<T> y(1, n);
    Rows<float> back(1, n);
    Rows<uint8_t> bits(1, n);
    tilec::interpret::launch(quantize<T, 256>, grid_for(n, 256), x.data(), y.data(), back.data(),
                             bits.data(), n);
    for (int i = 0; i < n; ++i) {
      const T want(x[i]);
      ASSERT_EQ(y.at(0, i).bits, want.bits) << i;
      ASSERT_EQ(bits.at(0, i), want.bits) << i;
      ASSERT_TRUE(same_bits(back.at(0, i), float(want) * 2)) << i;
    }
    EXPECT_TRUE(y.guards_intact() && back.guards_intact() && bits.guards_intact()) << n;
  }
}

} // namespace

TEST(Fp8Conversions, QuantizeInAKernel) {
  check_quantize<tl::float8_e4m3>();
  check_quantize<tl::float8_e5m2>();
}
