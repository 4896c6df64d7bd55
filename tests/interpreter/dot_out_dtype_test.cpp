// tl::dot<Out> (Triton's out_dtype): the accumulation type gives the plain product; tl::half
// for half and fp8 operands is the float product (from a widened half accumulator) rounded
// to half once, bit for bit; the GPU test's kernels run here too.
#include "support.h"

#include <gtest/gtest.h>

namespace out_dtype {
#include "dot_out_dtype.cpp" // tests/gpu/kernels: the GPU test's kernels
} // namespace out_dtype

namespace {

template <class T, int R, int C> tl::tile<T, R, C> quarter_tile(unsigned seed) {
  tl::tile<T, R, C> t;
  for (int i = 0; i < R * C; ++i)
    t.elems[i] = T(float(int((i * 7 + seed * 13) % 17) - 8) / 4.0f + (seed % 3) * 0.1f);
  return t;
}

template <class T> void expect_same_tile(const T &got, const T &want) {
  for (int i = 0; i < T::numel; ++i)
    ASSERT_EQ(std::memcmp(&got.elems[i], &want.elems[i], sizeof(got.elems[i])), 0) << i;
}

TEST(DotOutDtype, HalfResultIsTheRoundedFloatProduct) {
  auto a = quarter_tile<tl::half, 16, 32>(1);
  auto b = quarter_tile<tl::half, 32, 8>(2);
  auto acc = quarter_tile<tl::half, 16, 8>(3);
  auto once = tl::dot<tl::half>(a, b);
  static_assert(std::is_same_v<decltype(once), tl::tile<tl::half, 16, 8>>);
  expect_same_tile(once, tl::cast<tl::half>(tl::dot(a, b)));
  auto accumulated = tl::dot<tl::half>(a, b, acc);
  static_assert(std::is_same_v<decltype(accumulated), tl::tile<tl::half, 16, 8>>);
  expect_same_tile(accumulated, tl::cast<tl::half>(tl::dot(a, b, tl::cast<float>(acc))));
}

TEST(DotOutDtype, Fp8OperandsGiveHalf) {
  auto a = quarter_tile<tl::float8_e4m3, 16, 32>(4);
  auto b = quarter_tile<tl::float8_e4m3, 32, 16>(5);
  auto got = tl::dot<tl::half>(a, b);
  static_assert(std::is_same_v<decltype(got), tl::tile<tl::half, 16, 16>>);
  expect_same_tile(got, tl::cast<tl::half>(tl::dot(a, b)));
}

TEST(DotOutDtype, AccumulationTypeIsThePlainProduct) {
  auto a = quarter_tile<tl::bfloat16, 16, 16>(6);
  auto b = quarter_tile<tl::bfloat16, 16, 16>(7);
  expect_same_tile(tl::dot<float>(a, b), tl::dot(a, b));
  auto f = quarter_tile<float, 16, 16>(8);
  auto acc = quarter_tile<float, 16, 16>(9);
  expect_same_tile(tl::dot<float>(f, f, acc, tl::precision::ieee),
                   tl::dot(f, f, acc, tl::precision::ieee));
  tl::tile<int8_t, 16, 32> i8;
  for (int i = 0; i < i8.numel; ++i)
    i8.elems[i] = int8_t(i % 23 - 11);
  auto ints = tl::dot<int32_t>(i8, tl::trans(i8));
  static_assert(std::is_same_v<decltype(ints), tl::tile<int32_t, 16, 16>>);
  expect_same_tile(ints, tl::dot(i8, tl::trans(i8)));
}

TEST(DotOutDtype, HalfAccumulatorOverAKLoop) {
  constexpr int BM = 16, BN = 16, BK = 16;
  const int m = 20, n = 18, k = 40;
  std::vector<tl::half> a(size_t(m) * k), b(size_t(k) * n);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = tl::half(float(int(i % 9) - 4) / 4.0f);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = tl::half(float(int(i % 7) - 3) / 4.0f);
  std::vector<tl::half> dense(size_t(m) * n);
  tilec::interpret::launch(out_dtype::half_out_loop<BM, BN, BK, tl::half>,
                           tilec::Grid{uint32_t((m + BM - 1) / BM), uint32_t((n + BN - 1) / BN)},
                           a.data(), b.data(), dense.data(), m, n, k);
  // Each step adds a K block's exact float sum to the half accumulator, then rounds to half.
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      tl::half acc(0.0f);
      for (int k0 = 0; k0 < k; k0 += BK) {
        float sum = float(acc);
        for (int p = k0; p < k0 + BK && p < k; ++p)
          sum += float(a[size_t(i) * k + p]) * float(b[size_t(p) * n + j]);
        acc = tl::half(sum);
      }
      ASSERT_EQ(float(dense[size_t(i) * n + j]), float(acc)) << i << ", " << j;
    }
}

} // namespace
