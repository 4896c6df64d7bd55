// random.cuh: counter-based random numbers (Philox 4x32-10, as Random123 and Triton define
// it). A number depends only on (seed, offset), so every thread computes its own elements and
// the host interpreter reproduces them: randint and rand bit for bit; randn within the
// rounding of logf/cosf/sqrtf (the precise functions, never __logf/__cosf).
//
// The seed is the key (low word, high word); the offset is counter word 0, the other counter
// words are 0.
#pragma once

#include <tilec/device/common/compat.cuh>

namespace tilec {

inline constexpr uint32_t PHILOX_M0 = 0xD2511F53u; // multiplier of counter word 0
inline constexpr uint32_t PHILOX_M1 = 0xCD9E8D57u; // multiplier of counter word 2
inline constexpr uint32_t PHILOX_W0 = 0x9E3779B9u; // key schedule: golden ratio
inline constexpr uint32_t PHILOX_W1 = 0xBB67AE85u; // key schedule: sqrt(3) - 1

/// Philox 4x32 with 10 rounds of counter (c0, c1, c2, c3) under key (k0, k1). Each round:
/// the full 64-bit products M0 * c0 and M1 * c2 give the new counter
/// (hi(M1 c2) ^ c1 ^ k0, lo(M1 c2), hi(M0 c0) ^ c3 ^ k1, lo(M0 c0)), then the key advances
/// by (W0, W1).
__device__ inline uint4 philox(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                               uint32_t k1) {
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    const uint32_t lo0 = PHILOX_M0 * c0, hi0 = __umulhi(PHILOX_M0, c0);
    const uint32_t lo1 = PHILOX_M1 * c2, hi1 = __umulhi(PHILOX_M1, c2);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += PHILOX_W0;
    k1 += PHILOX_W1;
  }
  return make_uint4(c0, c1, c2, c3);
}

/// All four 32-bit words for (seed, offset).
__device__ inline uint4 randint4x(uint64_t seed, uint32_t offset) {
  return philox(offset, 0u, 0u, 0u, uint32_t(seed), uint32_t(seed >> 32));
}

/// One random 32-bit word for (seed, offset): word 0 of randint4x.
__device__ inline uint32_t randint(uint64_t seed, uint32_t offset) {
  return randint4x(seed, offset).x;
}

/// A uniform float in [0, 1) from 32 random bits, as Triton: the bits read as a signed int x,
/// negatives folded onto non-negatives (x -> -x - 1, so INT_MIN -> INT_MAX), times 2^-31
/// (rounded to float: the largest results round up to 1.0f, as in Triton).
__device__ inline float uniform_from_bits(uint32_t bits) {
  // In unsigned arithmetic: -x - 1 == ~x, with no overflow for INT_MIN.
  const uint32_t folded = (bits & 0x80000000u) ? ~bits : bits;
  return float(int32_t(folded)) * 4.6566127342e-10f;
}

/// A uniform float in [0, 1) for (seed, offset), from word 0.
__device__ inline float rand(uint64_t seed, uint32_t offset) {
  return uniform_from_bits(randint(seed, offset));
}

/// Four uniform floats for (seed, offset), one from each word.
__device__ inline float4 rand4x(uint64_t seed, uint32_t offset) {
  const uint4 w = randint4x(seed, offset);
  return make_float4(uniform_from_bits(w.x), uniform_from_bits(w.y), uniform_from_bits(w.z),
                     uniform_from_bits(w.w));
}

/// A standard normal float for (seed, offset): Box-Muller on words 0 and 1 (cosine branch).
__device__ inline float randn(uint64_t seed, uint32_t offset) {
  const uint4 w = randint4x(seed, offset);
  const float u1 = fmaxf(1.0e-7f, uniform_from_bits(w.x)); // keeps logf finite
  const float u2 = uniform_from_bits(w.y);
  const float r = sqrtf(-2.0f * logf(u1));
  const float theta = 6.283185307179586f * u2;
  return r * cosf(theta);
}

/// Four standard normal floats for (seed, offset): Box-Muller on words (0, 1) and (2, 3),
/// cosine then sine branch of each pair. Element 0 equals randn(seed, offset).
__device__ inline float4 randn4x(uint64_t seed, uint32_t offset) {
  const uint4 w = randint4x(seed, offset);
  const float u1 = fmaxf(1.0e-7f, uniform_from_bits(w.x));
  const float u3 = fmaxf(1.0e-7f, uniform_from_bits(w.z));
  const float r1 = sqrtf(-2.0f * logf(u1)), t1 = 6.283185307179586f * uniform_from_bits(w.y);
  const float r3 = sqrtf(-2.0f * logf(u3)), t3 = 6.283185307179586f * uniform_from_bits(w.w);
  return make_float4(r1 * cosf(t1), r1 * sinf(t1), r3 * cosf(t3), r3 * sinf(t3));
}

} // namespace tilec
