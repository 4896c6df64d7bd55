// fp8 on the GPU (sm_89 and newer, where conversions run on cvt.*.e4m3x2 / .e5m2x2): every
// conversion must give the interpreter's bits (tilec/fp8.h), and a dot of operands rounded
// to fp8 in registers must give the exact product (see dot_gpu_test.cpp for why it is exact).
#include "device_buffer.h"
#include "fp8.tilec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

namespace {

#define REQUIRE_SM89_GPU()                                                                         \
  do {                                                                                             \
    std::string why;                                                                               \
    if (!tilec::gpu_available(&why))                                                               \
      GTEST_SKIP() << "no GPU: " << why;                                                           \
    const auto &d = tilec::detail::driver();                                                       \
    if (d.cc_major * 10 + d.cc_minor < 89)                                                         \
      GTEST_SKIP() << "fp8 needs sm_89 or newer, this GPU is sm_" << d.cc_major << d.cc_minor;     \
  } while (0)

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// Floats worth converting: specials, every code's value and the midpoints around it (both
/// signs), and random floats over every binade from far below to far above the formats.
template <class T> std::vector<float> conversion_inputs() {
  std::vector<float> x = {0.0f,     -0.0f,    INFINITY, -INFINITY, NAN,      -NAN,
                          1e-30f,   -1e-30f,  1e30f,    -1e30f,    448.0f,   464.0f,
                          465.0f,   480.0f,   57344.0f, 61439.0f,  61440.0f, 65536.0f,
                          0x1p-10f, 0x1p-17f, 3e-3f,    -7e-5f};
  for (int c = 0; c < 127; ++c) {
    const float lo = float(T::from_bits(uint8_t(c))), hi = float(T::from_bits(uint8_t(c + 1)));
    if (std::isnan(lo) || std::isnan(hi) || std::isinf(hi))
      continue;
    const float mid = (lo + hi) / 2; // exact: a few bits wide
    for (float v : {lo, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)})
      x.push_back(v), x.push_back(-v);
  }
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> exp(-30, 20);
  for (int i = 0; i < 5000; ++i)
    x.push_back(std::ldexp(mant(gen), exp(gen)) * (i % 2 ? -1.0f : 1.0f));
  return x;
}

template <class T> void check_round_trip() {
  const std::vector<float> x = conversion_inputs<T>();
  const int n = int(x.size());
  tilec_test::DeviceBuffer dx(x.size() * 4), dy(x.size()), dback(x.size() * 4);
  dx.upload(x);
  dy.fill(0xcd), dback.fill(0xff);
  fp8_round_trip<T, 256>(tilec::Grid{uint32_t((n + 255) / 256)}, nullptr, dx.as<float>(),
                         dy.as<T>(), dback.as<float>(), n, {.num_warps = 4});
  tilec_test::synchronize();
  const auto y = dy.download<uint8_t>();
  const auto back = dback.download<float>();
  for (int i = 0; i < n; ++i) {
    const T want(x[size_t(i)]);
    ASSERT_EQ(int(y[size_t(i)]), int(want.bits)) << "x = " << x[size_t(i)];
    if (std::isnan(float(want)))
      ASSERT_TRUE(std::isnan(back[size_t(i)])) << "x = " << x[size_t(i)];
    else
      ASSERT_EQ(bits_of(back[size_t(i)]), bits_of(float(want))) << "x = " << x[size_t(i)];
  }
}

template <class T> void check_decode() {
  std::vector<uint8_t> codes(256);
  for (int c = 0; c < 256; ++c)
    codes[size_t(c)] = uint8_t(c);
  tilec_test::DeviceBuffer dc(256), dout(256 * 4);
  dc.upload(codes);
  dout.fill(0xcd);
  fp8_decode<T, 128>(tilec::Grid{2}, nullptr, dc.as<uint8_t>(), dout.as<float>(), 256,
                     {.num_warps = 4});
  tilec_test::synchronize();
  const auto out = dout.download<float>();
  for (int c = 0; c < 256; ++c) {
    const float want = float(T::from_bits(uint8_t(c)));
    if (std::isnan(want)) // NaN bits may differ: the host gives 0x7fffffff
      ASSERT_TRUE(std::isnan(out[size_t(c)])) << "code " << c;
    else
      ASSERT_EQ(bits_of(out[size_t(c)]), bits_of(want)) << "code " << c;
  }
}

template <int BM, int BN, int BK, class T> void check_quantized_dot(int m, int n, int k) {
  // Multiples of 1/8 in [-1, 1], plus noise that rounding to fp8 removes: below a quarter of
  // the finest spacing next to them (1/128, just below 1/8 in e4m3).
  std::mt19937 rng(unsigned(m * 131 + n * 7 + k));
  std::uniform_int_distribution<int> eighths(-8, 8);
  std::uniform_real_distribution<float> noise(-1.0f / 512, 1.0f / 512);
  auto values = [&](size_t count) {
    std::vector<float> v(count);
    for (float &x : v) {
      const int e = eighths(rng);
      x = e == 0 ? 0.0f : float(e) / 8 + noise(rng);
    }
    return v;
  };
  std::vector<float> a = values(size_t(m) * k), b = values(size_t(k) * n);
  tilec_test::DeviceBuffer da(a.size() * 4), db(b.size() * 4), dc(size_t(m) * n * 4);
  da.upload(a), db.upload(b);
  dc.fill(0xff);
  quantized_dot<BM, BN, BK, T>(tilec::Grid{1}, nullptr, da.as<float>(), db.as<float>(),
                               dc.as<float>(), 0.5f, m, n, k, {.num_warps = 4});
  tilec_test::synchronize();
  const auto c = dc.download<float>();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0;
      for (int p = 0; p < k; ++p)
        want += double(float(T(a[size_t(i) * k + p]))) * double(float(T(b[size_t(p) * n + j])));
      ASSERT_EQ(double(c[size_t(i) * n + j]), 0.5 * want) << "at (" << i << ", " << j << ")";
    }
}

} // namespace

TEST(GpuFp8, RoundTripMatchesTheInterpreter) {
  REQUIRE_SM89_GPU();
  check_round_trip<tl::float8_e4m3>();
  check_round_trip<tl::float8_e5m2>();
}

TEST(GpuFp8, DecodesEveryCode) {
  REQUIRE_SM89_GPU();
  check_decode<tl::float8_e4m3>();
  check_decode<tl::float8_e5m2>();
}

TEST(GpuFp8, DotOfQuantizedOperands) {
  REQUIRE_SM89_GPU();
  check_quantized_dot<32, 32, 64, tl::float8_e4m3>(30, 20, 40);
  check_quantized_dot<64, 64, 128, tl::float8_e5m2>(64, 50, 100);
}
