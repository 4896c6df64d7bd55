// Specialization names (what NVRTC instantiates) and the DIV16 fact mask.
#include "name_expression.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

using tilec::Kernel;
using tilec::SpecKey;

namespace {

const tilec::Source kSource = {"none.cu", "// never compiled in these tests\n"};

SpecKey key_of(std::initializer_list<int64_t> values) {
  SpecKey k;
  for (int64_t v : values)
    k.push(v);
  return k;
}

} // namespace

TEST(NameExpression, IntegerArguments) {
  Kernel k(kSource, "add_kernel", "i");
  EXPECT_EQ(k.name_expression(key_of({1024, 4, 3, 7})), "add_kernel<1024, 4, 3, 7u>");
  EXPECT_EQ(k.name_expression(key_of({-8, 8, 1, 0})), "add_kernel<-8, 8, 1, 0u>");
}

TEST(NameExpression, BoolAndTypeArguments) {
  Kernel k(kSource, "matmul_kernel", "tibt");
  SpecKey key =
      key_of({tilec::type_id<tl::half>(), 128, 1, tilec::type_id<float>(), 8, 4, 0xffffffffu});
  EXPECT_EQ(k.name_expression(key), "matmul_kernel<tl::half, 128, true, float, 8, 4, 4294967295u>");
  key = key_of({tilec::type_id<tl::bfloat16>(), 64, 0, tilec::type_id<int32_t>(), 4, 2, 1});
  EXPECT_EQ(k.name_expression(key), "matmul_kernel<tl::bfloat16, 64, false, int32_t, 4, 2, 1u>");
}

TEST(NameExpression, EveryTypeIdHasACudaName) {
  for (int64_t id = 1; id <= 15; ++id)
    EXPECT_NE(tilec::detail::type_name_for_id(id), nullptr) << id;
  EXPECT_EQ(tilec::detail::type_name_for_id(0), nullptr);
  EXPECT_EQ(tilec::detail::type_name_for_id(16), nullptr);
  EXPECT_STREQ(tilec::detail::type_name_for_id(tilec::type_id<uint8_t>()), "uint8_t");
  EXPECT_STREQ(tilec::detail::type_name_for_id(tilec::type_id<tl::float8_e4m3>()),
               "tl::float8_e4m3");
  EXPECT_STREQ(tilec::detail::type_name_for_id(tilec::type_id<tl::float8_e5m2>()),
               "tl::float8_e5m2");
}

TEST(NameExpression, NoUserTemplateParameters) {
  Kernel k(kSource, "plain", "");
  EXPECT_EQ(k.name_expression(key_of({4, 3, 1})), "plain<4, 3, 1u>");
}

TEST(NameExpression, WrongKeyLengthIsAnError) {
  Kernel k(kSource, "add_kernel", "i");
  EXPECT_THROW(k.name_expression(key_of({1024, 4, 3})), tilec::Error);
  EXPECT_THROW(k.name_expression(key_of({1024, 4, 3, 7, 1})), tilec::Error);
}

TEST(NameExpression, BadKindOrTypeIdIsAnError) {
  Kernel bad_kind(kSource, "k", "x");
  EXPECT_THROW(bad_kind.name_expression(key_of({1, 4, 3, 0})), tilec::Error);
  Kernel type_kind(kSource, "k", "t");
  EXPECT_THROW(type_kind.name_expression(key_of({99, 4, 3, 0})), tilec::Error);
}

TEST(NameExpression, SpecKeyOverflowIsAnError) {
  SpecKey k;
  for (int i = 0; i < SpecKey::kMax; ++i)
    k.push(i);
  EXPECT_THROW(k.push(0), tilec::Error);
}

TEST(NameExpression, NormalizeSpacing) {
  using tilec::detail::normalize_name_expression;
  EXPECT_EQ(normalize_name_expression("add_kernel< 1024 ,4,  3, 7u >"), "add_kernel<1024,4,3,7u>");
  EXPECT_EQ(normalize_name_expression("k<unsigned  int, 2>"), "k<unsigned int,2>");
}

TEST(NameExpression, SplitDiv16) {
  std::string prefix;
  uint64_t mask = 0;
  ASSERT_TRUE(tilec::detail::split_div16("add_kernel<1024,4,3,7u>", prefix, mask));
  EXPECT_EQ(prefix, "add_kernel<1024,4,3,");
  EXPECT_EQ(mask, 7u);
  ASSERT_TRUE(tilec::detail::split_div16("k<12>", prefix, mask));
  EXPECT_EQ(prefix, "k<");
  EXPECT_EQ(mask, 12u);
  EXPECT_FALSE(tilec::detail::split_div16("k<float>", prefix, mask));
  EXPECT_FALSE(tilec::detail::split_div16("k", prefix, mask));
  // The 64-bit mask of a kernel with more than 32 arguments, its top bit (a grid fact) set.
  ASSERT_TRUE(tilec::detail::split_div16("k<4,1,9223372036854775809u>", prefix, mask));
  EXPECT_EQ(mask, (uint64_t(1) << 63) | 1u);
  EXPECT_FALSE(tilec::detail::split_div16("k<4,1,18446744073709551616u>", prefix, mask));
}

TEST(NameExpression, Div16PrintsAll64Bits) {
  Kernel k(kSource, "add_kernel", "i");
  SpecKey key = key_of({1024, 4, 3});
  key.push(uint64_t(1) << 62 | uint64_t(1) << 40 | 5u);
  EXPECT_EQ(k.name_expression(key), "add_kernel<1024, 4, 3, 4611687117939015685u>");
}

TEST(Div16Mask, PointersIntegersAndOthers) {
  alignas(16) static float buf[8];
  const float *aligned = buf;
  const float *misaligned = buf + 1;
  int n16 = 4096, n_odd = 1000, n_zero = 0;
  int64_t big = int64_t(1) << 40;
  float f = 16.0f;
  bool b = false;
  EXPECT_EQ(tilec::div16_mask(aligned, misaligned, n16, n_odd), 0b0101u);
  EXPECT_EQ(tilec::div16_mask(n_zero, big, f, b), 0b0011u);
  EXPECT_EQ(tilec::div16_mask(misaligned), 0u);
  EXPECT_EQ(tilec::div16_mask(), 0u);
  EXPECT_EQ(tilec::div16_mask(-32), 1u);
  const float *null = nullptr;
  EXPECT_EQ(tilec::div16_mask(null), 1u);
}

TEST(SpecFacts, OneGridAndMapsBits) {
  // An integer argument equal to 1 sets its bit; other values, floats, bools and pointers
  // never do.
  EXPECT_EQ(tilec::one_fact(1, 9), 1u << 9);
  EXPECT_EQ(tilec::one_fact(int64_t(1), 29), 1u << 29);
  EXPECT_EQ(tilec::one_fact(1, 60), uint64_t(1) << 60);
  EXPECT_EQ(tilec::one_fact(0, 9), 0u);
  EXPECT_EQ(tilec::one_fact(-1, 9), 0u);
  EXPECT_EQ(tilec::one_fact(17, 9), 0u);
  EXPECT_EQ(tilec::one_fact(1.0f, 9), 0u);
  EXPECT_EQ(tilec::one_fact(true, 9), 0u);
  static const float one[1] = {1.0f};
  EXPECT_EQ(tilec::one_fact(one + 0, 9), 0u);
  // A grid of one program along an axis sets its bit, the top ones of the mask included.
  EXPECT_EQ(tilec::grid_fact(1, 30), 1u << 30);
  EXPECT_EQ(tilec::grid_fact(1, 31), 1u << 31);
  EXPECT_EQ(tilec::grid_fact(1, 63), uint64_t(1) << 63);
  EXPECT_EQ(tilec::grid_fact(2, 30), 0u);
  EXPECT_EQ(tilec::grid_fact(0, 30), 0u);
  // Every tensor map encoded: the mask of encoded maps equals the kernel's all (here two maps
  // and the producer warpgroup's bit 31); one missing map, or the producer not allowed, clears it.
  const uint32_t all = 3u | 1u << 31;
  EXPECT_EQ(tilec::maps_fact(all, all, 29), 1u << 29);
  EXPECT_EQ(tilec::maps_fact(1u | 1u << 31, all, 29), 0u);
  EXPECT_EQ(tilec::maps_fact(3u, all, 29), 0u);
  EXPECT_EQ(tilec::maps_fact(3u, 3u, 29), 1u << 29);
  EXPECT_EQ(tilec::maps_fact(0u, 3u, 29), 0u);
  EXPECT_EQ(tilec::maps_fact(3u, 3u, 61), uint64_t(1) << 61);
  // With the arguments' DIV16 bits, as a launcher builds a key: K == 1 at bit 5 + 4.
  alignas(16) static float buf[4];
  const float *x = buf;
  int m = 4096, k = 1;
  EXPECT_EQ(tilec::div16_mask(x, m, k) | tilec::one_fact(k, 3 + 2) | tilec::grid_fact(1, 30),
            0b011u | (1u << 5) | (1u << 30));
}

// FLA's fused recurrent backward has 19 template parameters: with num_warps, num_stages and
// DIV16 its key holds 22 values (more than the 16 that once threw at the first launch).
TEST(NameExpression, KeysHoldManyTemplateArguments) {
  std::string kinds(19, 'b');
  Kernel k(kSource, "fused_recurrent_bwd_kernel", kinds.c_str());
  SpecKey key;
  std::string want = "fused_recurrent_bwd_kernel<";
  for (int i = 0; i < 19; ++i) {
    key.push(i % 2);
    want += i % 2 ? "true, " : "false, ";
  }
  key.push(4);
  key.push(1);
  key.push(5);
  EXPECT_EQ(k.name_expression(key), want + "4, 1, 5u>");
  while (key.n < SpecKey::kMax)
    key.push(0);
  EXPECT_THROW(key.push(0), tilec::Error);
}
