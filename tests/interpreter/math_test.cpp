// Math functions against <cmath>, and where / maximum / minimum / clamp.
#include "support.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace tilec_test;

template <int BLOCK> TILEC_KERNEL void math_kernel(const float *x, float *out, int stride, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto p = tl::abs(a) + 0.125f; // positive operand for log/sqrt
  tl::store(out + 0 * stride + offs, tl::exp(a), mask);
  tl::store(out + 1 * stride + offs, tl::exp2(a), mask);
  tl::store(out + 2 * stride + offs, tl::log(p), mask);
  tl::store(out + 3 * stride + offs, tl::log2(p), mask);
  tl::store(out + 4 * stride + offs, tl::sqrt(p), mask);
  tl::store(out + 5 * stride + offs, tl::rsqrt(p), mask);
  tl::store(out + 6 * stride + offs, tl::sin(a), mask);
  tl::store(out + 7 * stride + offs, tl::cos(a), mask);
  tl::store(out + 8 * stride + offs, tl::tanh(a), mask);
  tl::store(out + 9 * stride + offs, tl::erf(a), mask);
  tl::store(out + 10 * stride + offs, tl::sigmoid(a), mask);
  tl::store(out + 11 * stride + offs, tl::floor(a), mask);
  tl::store(out + 12 * stride + offs, tl::ceil(a), mask);
  tl::store(out + 13 * stride + offs, tl::fma(a, p, a), mask);
  tl::store(out + 14 * stride + offs, tl::abs(a), mask);
}

TEST(Math, FloatFunctions) {
  for (int n : kSizes) {
    auto x = random_floats(n, -6.f, 6.f, 31);
    Rows<float> out(15, n);
    tilec::interpret::launch(math_kernel<256>, grid_for(n, 256), x.data(), out.data(), out.stride(),
                             n);
    for (int i = 0; i < n; ++i) {
      float a = x[i], p = std::fabs(a) + 0.125f;
      const float want[15] = {std::exp(a),
                              std::exp2(a),
                              std::log(p),
                              std::log2(p),
                              std::sqrt(p),
                              1.0f / std::sqrt(p),
                              std::sin(a),
                              std::cos(a),
                              std::tanh(a),
                              std::erf(a),
                              1.0f / (1.0f + std::exp(-a)),
                              std::floor(a),
                              std::ceil(a),
                              std::fma(a, p, a),
                              std::fabs(a)};
      for (int k = 0; k < 15; ++k)
        ASSERT_FLOAT_EQ(out.at(k, i), want[k]) << "function " << k << " i=" << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

template <int BLOCK>
TILEC_KERNEL void libdevice_kernel(const float *x, float *out, int stride, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask, 0.0f);    // in [-0.9, 0.9)
  auto p = tl::abs(a) + 1.25f;                // in [1.25, 2.15)
  auto r = [&](int k, auto v) { tl::store(out + k * stride + offs, v, mask); };
  r(0, tl::tan(a));
  r(1, tl::asin(a));
  r(2, tl::acos(a));
  r(3, tl::atan(a));
  r(4, tl::sinh(a));
  r(5, tl::cosh(a));
  r(6, tl::asinh(a));
  r(7, tl::acosh(p));
  r(8, tl::atanh(a));
  r(9, tl::log10(p));
  r(10, tl::log1p(a));
  r(11, tl::expm1(a));
  r(12, tl::erfc(a));
  r(13, tl::trunc(a * 3.0f));
  r(14, tl::rint(a * 3.0f));
  r(15, tl::pow(p, a));
  r(16, tl::atan2(a, p));
  r(17, tl::hypot(a, p));
}

TEST(Math, LibdeviceFunctions) {
  for (int n : kSizes) {
    auto x = random_floats(n, -0.9f, 0.9f, 37);
    Rows<float> out(18, n);
    tilec::interpret::launch(libdevice_kernel<256>, grid_for(n, 256), x.data(), out.data(),
                             out.stride(), n);
    for (int i = 0; i < n; ++i) {
      float a = x[i], p = std::fabs(a) + 1.25f;
      const float want[18] = {std::tan(a),   std::asin(a),  std::acos(a),        std::atan(a),
                              std::sinh(a),  std::cosh(a),  std::asinh(a),       std::acosh(p),
                              std::atanh(a), std::log10(p), std::log1p(a),       std::expm1(a),
                              std::erfc(a),  std::trunc(a * 3.0f), std::nearbyint(a * 3.0f),
                              std::pow(p, a), std::atan2(a, p), std::hypot(a, p)};
      for (int k = 0; k < 18; ++k)
        ASSERT_FLOAT_EQ(out.at(k, i), want[k]) << "function " << k << " i=" << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

TEST(Math, HalfAndDoubleKeepTheirType) {
  auto h = tl::full<tl::half, 4>(0.5f);
  static_assert(std::is_same_v<decltype(tl::exp(h)), tl::tile<tl::half, 4>>);
  EXPECT_EQ(tl::detail::at(tl::exp(h), 0).bits, tl::half(std::exp(0.5f)).bits);
  auto d = tl::full<double, 2>(2.0);
  static_assert(std::is_same_v<decltype(tl::sqrt(d)), tl::tile<double, 2>>);
  EXPECT_EQ(tl::detail::at(tl::sqrt(d), 1), std::sqrt(2.0));
  EXPECT_EQ(tl::sqrt(4.0f), 2.0f); // scalars alike
  EXPECT_EQ(tl::sigmoid(0.0f), 0.5f);
}

template <int BLOCK>
TILEC_KERNEL void select_kernel(const float *x, const float *y, float *out, int stride, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  tl::store(out + 0 * stride + offs, tl::where(a > b, a, b), mask);
  tl::store(out + 1 * stride + offs, tl::where(a > 0.0f, a, 0.0f), mask); // relu
  tl::store(out + 2 * stride + offs, tl::maximum(a, b), mask);
  tl::store(out + 3 * stride + offs, tl::minimum(a, b), mask);
  tl::store(out + 4 * stride + offs, tl::clamp(a, -1.0f, 0.5f), mask);
  tl::store(out + 5 * stride + offs, tl::maximum(a, 0.25f), mask);
  tl::store(out + 6 * stride + offs, tl::where(offs % 2 == 0, 1.0f, b), mask);
}

TEST(Math, WhereMaximumMinimumClamp) {
  for (int n : kSizes) {
    auto x = random_floats(n, -3.f, 3.f, 32);
    auto y = random_floats(n, -3.f, 3.f, 33);
    Rows<float> out(7, n);
    tilec::interpret::launch(select_kernel<512>, grid_for(n, 512), x.data(), y.data(), out.data(),
                             out.stride(), n);
    for (int i = 0; i < n; ++i) {
      float a = x[i], b = y[i];
      ASSERT_EQ(out.at(0, i), a > b ? a : b) << i;
      ASSERT_EQ(out.at(1, i), a > 0 ? a : 0.0f) << i;
      ASSERT_EQ(out.at(2, i), std::fmax(a, b)) << i;
      ASSERT_EQ(out.at(3, i), std::fmin(a, b)) << i;
      ASSERT_EQ(out.at(4, i), std::fmin(std::fmax(a, -1.0f), 0.5f)) << i;
      ASSERT_EQ(out.at(5, i), std::fmax(a, 0.25f)) << i;
      ASSERT_EQ(out.at(6, i), i % 2 == 0 ? 1.0f : b) << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

TEST(Math, IntegerSelectAndNaN) {
  auto i = tl::arange<0, 8>();
  auto m = tl::maximum(i, 3);
  auto c = tl::clamp(i, 2, 5);
  static_assert(std::is_same_v<decltype(m), tl::tile<int32_t, 8>>);
  EXPECT_EQ(tl::detail::at(m, 0), 3);
  EXPECT_EQ(tl::detail::at(m, 7), 7);
  EXPECT_EQ(tl::detail::at(c, 0), 2);
  EXPECT_EQ(tl::detail::at(c, 7), 5);
  auto nan = tl::full<float, 2>(NAN);
  EXPECT_EQ(tl::detail::at(tl::maximum(nan, 1.0f), 0), 1.0f); // NaN loses, like fmaxf
  EXPECT_EQ(tl::maximum(2, 7), 7);
  EXPECT_EQ(tl::minimum(2.5f, -1.0f), -1.0f);
  EXPECT_EQ(tl::where(true, 1, 2), 1);
}

// tl::div_rn and tl::fdiv are both exact in the interpreter (the reference); half operands
// divide in float and give float, as `/` does.
TEST(Math, DivRnAndFdiv) {
  auto a = tl::full<float, 4>(1.0f);
  auto b = tl::cast<float>(tl::arange<1, 5>());
  auto rn = tl::div_rn(a, b);
  auto approx = tl::fdiv(a, b);
  static_assert(std::is_same_v<decltype(rn), tl::tile<float, 4>>);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(tl::detail::at(rn, k), 1.0f / float(k + 1)) << k;
    EXPECT_EQ(tl::detail::at(approx, k), 1.0f / float(k + 1)) << k;
  }
  auto h = tl::full<tl::half, 2>(tl::half(3.0f));
  auto hq = tl::div_rn(h, tl::half(2.0f));
  static_assert(std::is_same_v<decltype(hq), tl::tile<float, 2>>);
  EXPECT_EQ(tl::detail::at(hq, 1), 1.5f);
  EXPECT_EQ(tl::fdiv(1.0, 4.0), 0.25);
  EXPECT_EQ(tl::detail::at(tl::sqrt_rn(b), 3), 2.0f);
}
