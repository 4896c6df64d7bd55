// cast (also t.to<T>()) and bitcast between element types.
#include "support.h"

#include <gtest/gtest.h>

using namespace tilec_test;

template <int BLOCK>
TILEC_KERNEL void cast_kernel(const float *x, int32_t *oi, uint8_t *ou8, tl::half *oh,
                              tl::bfloat16 *obf, double *od, uint32_t *obits, float *oback, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  tl::store(oi + offs, tl::cast<int32_t>(a), mask);
  tl::store(ou8 + offs, a.template to<uint8_t>(), mask); // `template`: a is dependent
  tl::store(oh + offs, tl::cast<tl::half>(a), mask);
  tl::store(obf + offs, tl::cast<tl::bfloat16>(a), mask);
  tl::store(od + offs, tl::cast<double>(a) * 3.0, mask);
  auto bits = tl::bitcast<uint32_t>(a);
  tl::store(obits + offs, bits, mask);
  tl::store(oback + offs, tl::bitcast<float>(bits ^ 0x80000000u), mask); // flip the sign
}

TEST(Cast, CastAndBitcast) {
  for (int n : kSizes) {
    auto x = random_floats(n, -300.f, 300.f, 41);
    Rows<int32_t> oi(1, n);
    Rows<uint8_t> ou8(1, n);
    Rows<tl::half> oh(1, n);
    Rows<tl::bfloat16> obf(1, n);
    Rows<double> od(1, n);
    Rows<uint32_t> obits(1, n);
    Rows<float> oback(1, n);
    tilec::interpret::launch(cast_kernel<256>, grid_for(n, 256), x.data(), oi.data(), ou8.data(),
                             oh.data(), obf.data(), od.data(), obits.data(), oback.data(), n);
    for (int i = 0; i < n; ++i) {
      float a = x[i];
      ASSERT_EQ(oi.at(0, i), int32_t(a)) << i;
      // float -> uint8 saturates like the GPU's cvt.rzi.sat
      uint8_t want8 = a <= 0 ? 0 : a >= 255 ? 255 : uint8_t(a);
      ASSERT_EQ(ou8.at(0, i), want8) << i;
      ASSERT_EQ(oh.at(0, i).bits, tl::half(a).bits) << i;
      ASSERT_EQ(obf.at(0, i).bits, tl::bfloat16(a).bits) << i;
      ASSERT_EQ(od.at(0, i), double(a) * 3.0) << i;
      uint32_t b;
      std::memcpy(&b, &a, 4);
      ASSERT_EQ(obits.at(0, i), b) << i;
      ASSERT_EQ(oback.at(0, i), -a) << i;
    }
    EXPECT_TRUE(oi.guards_intact() && ou8.guards_intact() && oh.guards_intact() &&
                obf.guards_intact() && od.guards_intact() && obits.guards_intact() &&
                oback.guards_intact())
        << n;
  }
}

TEST(Cast, Conversions) {
  EXPECT_EQ(tl::cast<int32_t>(1e20f), INT32_MAX); // saturates
  EXPECT_EQ(tl::cast<int32_t>(-1e20f), INT32_MIN);
  EXPECT_EQ(tl::cast<int32_t>(NAN), 0);
  EXPECT_EQ(tl::cast<uint32_t>(-5.0f), 0u);
  EXPECT_EQ(tl::cast<int64_t>(-2.75), -2);
  EXPECT_EQ(tl::cast<bool>(0.5f), true);
  EXPECT_EQ(tl::cast<int8_t>(300), int8_t(44)); // integers wrap
  auto h = tl::cast<tl::half>(tl::arange<0, 4>());
  static_assert(std::is_same_v<decltype(h), tl::tile<tl::half, 4>>);
  EXPECT_EQ(float(tl::detail::at(h, 3)), 3.0f);
  auto b = tl::cast<bool>(tl::arange<0, 4>());
  EXPECT_FALSE(tl::detail::at(b, 0));
  EXPECT_TRUE(tl::detail::at(b, 3));
  auto hb = tl::bitcast<uint16_t>(tl::full<tl::half, 2>(1.0f));
  EXPECT_EQ(tl::detail::at(hb, 0), 0x3c00);
  EXPECT_EQ(tl::bitcast<int32_t>(1.0f), 0x3f800000);
}
