// Integer operators and functions: wrapping arithmetic, truncating / and %, bitwise
// operators, shifts, cdiv and umulhi.
#include "support.h"

#include <gtest/gtest.h>

using namespace tilec_test;

template <int BLOCK>
TILEC_KERNEL void int_ops_kernel(const int32_t *x, const int32_t *y, int32_t *out, int stride,
                                 int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask, 1);
  tl::store(out + 0 * stride + offs, a + b, mask);
  tl::store(out + 1 * stride + offs, a - b, mask);
  tl::store(out + 2 * stride + offs, a * b, mask);
  tl::store(out + 3 * stride + offs, a / b, mask);
  tl::store(out + 4 * stride + offs, a % b, mask);
  tl::store(out + 5 * stride + offs, a & b, mask);
  tl::store(out + 6 * stride + offs, a | b, mask);
  tl::store(out + 7 * stride + offs, a ^ b, mask);
  tl::store(out + 8 * stride + offs, ~a, mask);
  tl::store(out + 9 * stride + offs, a << (b & 31), mask);
  tl::store(out + 10 * stride + offs, a >> (b & 31), mask);
  tl::store(out + 11 * stride + offs, tl::cdiv(a, b), mask);
  tl::store(out + 12 * stride + offs, tl::umulhi(a, b), mask);
  tl::store(out + 13 * stride + offs, tl::abs(a), mask);
  auto c = a;
  c <<= 3;
  c ^= b;
  c %= 1000;
  tl::store(out + 14 * stride + offs, c, mask);
}

TEST(Integer, Int32Ops) {
  for (int n : kSizes) {
    auto x = random_ints<int32_t>(n, INT32_MIN, INT32_MAX, 21);
    auto y = random_ints<int32_t>(n, -100000, 100000, 22);
    for (auto &v : y)
      if (v == 0 || v == -1) // keep the reference loop free of undefined behaviour
        v = 7;
    Rows<int32_t> out(15, n);
    tilec::interpret::launch(int_ops_kernel<256>, grid_for(n, 256), x.data(), y.data(), out.data(),
                             out.stride(), n);
    for (int i = 0; i < n; ++i) {
      int32_t a = x[i], b = y[i];
      uint32_t ua = uint32_t(a), ub = uint32_t(b);
      ASSERT_EQ(out.at(0, i), int32_t(ua + ub)) << i;
      ASSERT_EQ(out.at(1, i), int32_t(ua - ub)) << i;
      ASSERT_EQ(out.at(2, i), int32_t(ua * ub)) << i;
      ASSERT_EQ(out.at(3, i), a / b) << i;
      ASSERT_EQ(out.at(4, i), a % b) << i;
      ASSERT_EQ(out.at(5, i), a & b) << i;
      ASSERT_EQ(out.at(6, i), a | b) << i;
      ASSERT_EQ(out.at(7, i), a ^ b) << i;
      ASSERT_EQ(out.at(8, i), ~a) << i;
      ASSERT_EQ(out.at(9, i), int32_t(ua << (b & 31))) << i;
      ASSERT_EQ(out.at(10, i), a >> (b & 31)) << i;
      int32_t want_cdiv = int32_t(uint32_t(a) + uint32_t(b) - 1u) / b;
      ASSERT_EQ(out.at(11, i), want_cdiv) << i;
      ASSERT_EQ(out.at(12, i), int32_t((uint64_t(ua) * uint64_t(ub)) >> 32)) << i;
      ASSERT_EQ(out.at(13, i), a == INT32_MIN ? INT32_MIN : (a < 0 ? -a : a)) << i;
      int32_t c = int32_t(ua << 3);
      c ^= b;
      c %= 1000;
      ASSERT_EQ(out.at(14, i), c) << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

// Narrow and unsigned integers keep their type (no promotion to int) and wrap.
template <int BLOCK>
TILEC_KERNEL void narrow_kernel(const uint8_t *x, const int8_t *y, uint8_t *out8, int8_t *outs8,
                                uint64_t *out64, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  auto s = a * a + 7; // uint8 wraps
  static_assert(std::is_same_v<decltype(s), tl::tile<uint8_t, BLOCK>>);
  tl::store(out8 + offs, s, mask);
  tl::store(outs8 + offs, b * b - b, mask); // int8 wraps
  auto w = tl::cast<uint64_t>(a) << 56;
  tl::store(out64 + offs, tl::umulhi(w, w | 1u), mask);
}

TEST(Integer, NarrowAndWide) {
  for (int n : kSizes) {
    auto x = random_ints<uint8_t>(n, 0, 255, 23);
    auto y = random_ints<int8_t>(n, -128, 127, 24);
    Rows<uint8_t> o8(1, n);
    Rows<int8_t> os8(1, n);
    Rows<uint64_t> o64(1, n);
    tilec::interpret::launch(narrow_kernel<128>, grid_for(n, 128), x.data(), y.data(), o8.data(),
                             os8.data(), o64.data(), n);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(o8.at(0, i), uint8_t(x[i] * x[i] + 7)) << i;
      ASSERT_EQ(os8.at(0, i), int8_t(y[i] * y[i] - y[i])) << i;
      unsigned __int128 w = uint64_t(x[i]) << 56;
      ASSERT_EQ(o64.at(0, i), uint64_t((w * (w | 1u)) >> 64)) << i;
    }
    EXPECT_TRUE(o8.guards_intact() && os8.guards_intact() && o64.guards_intact()) << n;
  }
}

TEST(Integer, EdgeCasesAreDefined) {
  auto t = tl::full<int32_t, 4>(INT32_MIN);
  auto zero = tl::zeros<int32_t, 4>();
  EXPECT_EQ(tl::detail::at(t / -1, 0), INT32_MIN);
  EXPECT_EQ(tl::detail::at(t % -1, 0), 0);
  EXPECT_EQ(tl::detail::at(t / zero, 0), -1);
  EXPECT_EQ(tl::detail::at(t % zero, 0), INT32_MIN);
  EXPECT_EQ(tl::detail::at(t + t, 0), 0);
  EXPECT_EQ(tl::detail::at(tl::full<int32_t, 4>(1) << 32, 0), 0);
  EXPECT_EQ(tl::detail::at(t >> 40, 0), -1);
  EXPECT_EQ(tl::detail::at(tl::full<uint32_t, 4>(0x80000000u) >> 40, 0), 0u);
  EXPECT_EQ(tl::detail::at(-t, 0), INT32_MIN);
}

TEST(Integer, ScalarFunctions) {
  EXPECT_EQ(tl::cdiv(10, 4), 3);
  EXPECT_EQ(tl::cdiv(int64_t(1) << 40, 3), ((int64_t(1) << 40) + 2) / 3);
  EXPECT_EQ(tl::umulhi(0x80000000u, 4u), 2u);
  EXPECT_EQ(tl::umulhi(-1, -1), -2); // 0xffffffff^2 = 0xfffffffe_00000001
  EXPECT_EQ(tl::abs(-5), 5);
  auto c = tl::cdiv(tl::arange<0, 8>(), 3);
  EXPECT_EQ(tl::detail::at(c, 7), 3);
  EXPECT_EQ(tl::detail::at(c, 0), 0);
}
