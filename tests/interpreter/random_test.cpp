// Random numbers: Philox 4x32-10 against the Random123 known-answer vectors and against an
// independent implementation here (16-bit limb products); randint/rand/randn on tiles and
// scalars, seeds of every integer type; distribution checks; a kernel with masked stores.
#include "support.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace tilec_test;

namespace {

/// 32 x 32 -> 64-bit product from four 16-bit partial products (no 64-bit multiply).
void mul_hi_lo(uint32_t a, uint32_t b, uint32_t &hi, uint32_t &lo) {
  const uint32_t al = a & 0xffff, ah = a >> 16, bl = b & 0xffff, bh = b >> 16;
  const uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  const uint32_t mid = (ll >> 16) + (lh & 0xffff) + (hl & 0xffff); // < 3 * 2^16
  lo = (ll & 0xffff) | (mid << 16);
  hi = hh + (lh >> 16) + (hl >> 16) + (mid >> 16);
}

/// Philox 4x32-10 written from the Random123 definition, on arrays.
std::array<uint32_t, 4> reference_philox(std::array<uint32_t, 4> ctr, std::array<uint32_t, 2> key) {
  const uint32_t mult[2] = {0xD2511F53u, 0xCD9E8D57u};
  const uint32_t weyl[2] = {0x9E3779B9u, 0xBB67AE85u};
  for (int r = 0; r < 10; ++r) {
    if (r > 0)
      for (int k = 0; k < 2; ++k)
        key[k] += weyl[k];
    uint32_t hi[2], lo[2];
    mul_hi_lo(mult[0], ctr[0], hi[0], lo[0]);
    mul_hi_lo(mult[1], ctr[2], hi[1], lo[1]);
    ctr = {hi[1] ^ ctr[1] ^ key[0], lo[1], hi[0] ^ ctr[3] ^ key[1], lo[0]};
  }
  return ctr;
}

std::array<uint32_t, 4> reference_words(int64_t seed_bits, uint32_t offset) {
  const uint64_t s = uint64_t(seed_bits);
  return reference_philox({offset, 0, 0, 0}, {uint32_t(s & 0xffffffffu), uint32_t(s >> 32)});
}

float reference_uniform(uint32_t w) {
  int64_t x = int32_t(w);
  if (x < 0)
    x = -x - 1;
  return float(int32_t(x)) * 4.6566127342e-10f;
}

} // namespace

TEST(Random, PhiloxKnownAnswers) {
  struct Case {
    std::array<uint32_t, 4> ctr;
    std::array<uint32_t, 2> key;
    std::array<uint32_t, 4> want;
  };
  const Case cases[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const auto &c : cases) {
    EXPECT_EQ(tl::philox(c.ctr[0], c.ctr[1], c.ctr[2], c.ctr[3], c.key[0], c.key[1]), c.want);
    EXPECT_EQ(reference_philox(c.ctr, c.key), c.want);
  }
  // The two implementations agree on arbitrary inputs.
  auto v = random_ints<uint32_t>(6 * 1000, 0, 0xffffffffll, 61);
  for (int i = 0; i < 1000; ++i) {
    const uint32_t *p = v.data() + 6 * i;
    ASSERT_EQ(tl::philox(p[0], p[1], p[2], p[3], p[4], p[5]),
              reference_philox({p[0], p[1], p[2], p[3]}, {p[4], p[5]}))
        << i;
  }
}

TEST(Random, RandintAndRandMatchReference) {
  const int64_t seeds[] = {0, 42, -1, int64_t(0x123456789abcdefll), -987654321};
  auto offs = tl::arange<0, 256>() * 7919 - 100000; // negative offsets become large uint32
  for (int64_t seed : seeds) {
    auto ri = tl::randint(seed, offs);
    auto [w0, w1, w2, w3] = tl::randint4x(seed, offs);
    auto rf = tl::rand(seed, offs);
    auto r4 = tl::rand4x(seed, offs);
    static_assert(std::is_same_v<decltype(ri), tl::tile<uint32_t, 256>>);
    static_assert(std::is_same_v<decltype(rf), tl::tile<float, 256>>);
    for (int i = 0; i < 256; ++i) {
      const auto want = reference_words(seed, uint32_t(offs.elems[i]));
      ASSERT_EQ(ri.elems[i], want[0]) << seed << " " << i;
      ASSERT_TRUE(w0.elems[i] == want[0] && w1.elems[i] == want[1] && w2.elems[i] == want[2] &&
                  w3.elems[i] == want[3])
          << i;
      ASSERT_TRUE(same_bits(rf.elems[i], reference_uniform(want[0]))) << i;
      for (int k = 0; k < 4; ++k)
        ASSERT_TRUE(same_bits(r4[k].elems[i], reference_uniform(want[k]))) << i;
    }
  }
  // Seed types: int32 sign-extends (-1 and int64 -1 are the same seed), uint64 keeps its bits.
  EXPECT_EQ(tl::randint(int32_t(-1), 5), tl::randint(int64_t(-1), 5));
  EXPECT_EQ(tl::randint(uint64_t(0xffffffffffffffffull), 5u), tl::randint(-1, 5));
  EXPECT_NE(tl::randint(uint32_t(0xffffffffu), 5), tl::randint(-1, 5));
  EXPECT_EQ(tl::randint(uint64_t(1) << 32, 9), reference_words(int64_t(1) << 32, 9)[0]);
  // Scalar offsets give scalars.
  static_assert(std::is_same_v<decltype(tl::rand(1, 3)), float>);
  static_assert(std::is_same_v<decltype(tl::randn4x(1, 3u)), std::array<float, 4>>);
}

TEST(Random, UniformEdges) {
  // The extremes of the int32 view land inside [0, 1).
  for (uint32_t w : {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x7fffff80u}) {
    const float u = tl::detail::uniform_float(w);
    EXPECT_TRUE(u >= 0.0f && u < 1.0f) << w;
    EXPECT_TRUE(same_bits(u, reference_uniform(w))) << w;
  }
  EXPECT_EQ(tl::detail::uniform_float(0u), 0.0f);
  EXPECT_EQ(tl::detail::uniform_float(0xffffffffu), 0.0f); // -1 -> 0
}

TEST(Random, Distributions) {
  constexpr int N = 1 << 17; // > 1e5 samples, in tiles of 1024
  double sum_u = 0, sum_n = 0, sum_n2 = 0;
  float lo = 1, hi = 0;
  for (int b = 0; b < N / 1024; ++b) {
    auto offs = b * 1024 + tl::arange<0, 1024>();
    auto u = tl::rand(1234, offs);
    auto n = tl::randn(1234, offs);
    for (int i = 0; i < 1024; ++i) {
      lo = std::min(lo, u.elems[i]);
      hi = std::max(hi, u.elems[i]);
      sum_u += u.elems[i];
      sum_n += n.elems[i];
      sum_n2 += double(n.elems[i]) * n.elems[i];
      // Box-Muller from the first two words, in float.
      const auto w = reference_words(1234, uint32_t(offs.elems[i]));
      const float u1 = std::max(1.0e-7f, reference_uniform(w[0]));
      const float want =
          std::sqrt(-2.0f * std::log(u1)) * std::cos(6.283185307179586f * reference_uniform(w[1]));
      ASSERT_NEAR(n.elems[i], want, 1e-6f * (1 + std::fabs(want))) << i;
    }
  }
  EXPECT_GE(lo, 0.0f);
  EXPECT_LT(hi, 1.0f);
  EXPECT_NEAR(sum_u / N, 0.5, 0.005);
  const double mean = sum_n / N, var = sum_n2 / N - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.02);
  EXPECT_NEAR(var, 1.0, 0.03);
  // randn4x: cos and sin of the same pair, and a second pair.
  auto [n0, n1, n2, n3] = tl::randn4x(7, tl::arange<0, 4>());
  for (int i = 0; i < 4; ++i) {
    const auto w = reference_words(7, uint32_t(i));
    const float r = std::sqrt(-2.0f * std::log(std::max(1.0e-7f, reference_uniform(w[0]))));
    const float t = 6.283185307179586f * reference_uniform(w[1]);
    EXPECT_NEAR(n0.elems[i], r * std::cos(t), 1e-5);
    EXPECT_NEAR(n1.elems[i], r * std::sin(t), 1e-5);
    EXPECT_TRUE(std::isfinite(n2.elems[i]) && std::isfinite(n3.elems[i]));
  }
}

// Writes rand(seed, offs) for in-range lanes.
template <int BLOCK> TILEC_KERNEL void rand_kernel(float *out, uint32_t *bits, int n, int seed) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::rand(seed, offs), mask);
  tl::store(bits + offs, tl::randint(seed, offs), mask);
}

TEST(Random, KernelMatchesOffsets) {
  for (int n : kSizes) {
    Rows<float> out(1, n);
    Rows<uint32_t> bits(1, n);
    tilec::interpret::launch(rand_kernel<512>, grid_for(n, 512), out.data(), bits.data(), n, 77);
    for (int i = 0; i < n; i += (i < 5000 ? 1 : 97)) {
      const auto w = reference_words(77, uint32_t(i));
      ASSERT_EQ(bits.at(0, i), w[0]) << i;
      ASSERT_TRUE(same_bits(out.at(0, i), reference_uniform(w[0]))) << i;
    }
    EXPECT_TRUE(out.guards_intact() && bits.guards_intact()) << n;
  }
}
