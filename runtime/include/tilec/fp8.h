// tilec/fp8.h - the 8-bit float storage types tl::float8_e4m3 and tl::float8_e5m2.
//
// Bit layouts are those of CUDA's __nv_fp8_e4m3 / __nv_fp8_e5m2 (sign, exponent, mantissa):
//   e4m3: exponent bias 7, 3 mantissa bits, no infinities; 0x7f and 0xff are NaN; the
//         largest finite value is 448 (0x7e).
//   e5m2: exponent bias 15, 2 mantissa bits, IEEE-like: 0x7c / 0xfc are infinities, above
//         them NaNs; the largest finite value is 57344 (0x7b).
//
// Conversions give exactly what CUDA's default conversions give (the __nv_fp8_* constructors
// from float, which saturate: __NV_SATFINITE), so the interpreter and the GPU agree bit for bit:
//  - float -> fp8 rounds to nearest, ties to even. A value that rounds past the largest finite
//    value, and an infinity, become the largest finite value of its sign (never an infinity or
//    a NaN). A NaN becomes 0x7f whatever its sign. Results that round to zero keep the sign.
//  - fp8 -> float is exact; a NaN becomes the float NaN 0x7fffffff (as CUDA's host code gives
//    it; on the GPU any quiet NaN).
// Other types convert through float (double -> float -> fp8 rounds twice, as on the GPU).
#pragma once

#include <cstdint>
#include <cstring>

namespace tl {

namespace detail {

/// An fp8 format with E exponent bits and M mantissa bits (E = 4: e4m3, E = 5: e5m2).
template <int E, int M> struct fp8_format {
  static constexpr int BIAS = (1 << (E - 1)) - 1;
  static constexpr int EMIN = 1 - BIAS;                      // exponent of the smallest normal
  static constexpr uint32_t MAX_BITS = E == 4 ? 0x7e : 0x7b; // the largest finite value
  static constexpr uint8_t NAN_BITS = 0x7f;

  static uint8_t from_float(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint8_t sign = uint8_t((x >> 24) & 0x80u);
    const uint32_t a = x & 0x7fffffffu;
    if (a > 0x7f800000u)
      return NAN_BITS;
    if (a == 0x7f800000u)
      return uint8_t(sign | MAX_BITS);
    // |f| = sig * 2^(ex - 23), sig < 2^24 (float subnormals have no hidden bit).
    const bool normal = a >= 0x00800000u;
    const int ex = normal ? int(a >> 23) - 127 : -126;
    const uint32_t sig = normal ? (a & 0x7fffffu) | 0x800000u : a;
    // e: the fp8 binade of |f| (subnormals share the smallest normal's). r: |f| in units of
    // that binade's last mantissa place, rounded to nearest even.
    const int e = ex < EMIN ? EMIN : ex;
    const int shift = 23 - M + (e - ex); // at least 20
    uint32_t r = 0;
    if (shift < 32) { // beyond that, |f| is far below half a unit: r stays 0
      const uint32_t rest = sig & ((1u << shift) - 1u), half = 1u << (shift - 1);
      r = sig >> shift;
      r += (rest > half || (rest == half && (r & 1u))) ? 1u : 0u;
    }
    // The encoding is (e - EMIN) binades of 2^M codes above the subnormals, plus r: a carry
    // of r into the next binade lands on the next exponent by itself. Codes are ordered like
    // the values they stand for, so saturating is a clamp.
    const uint32_t bits = (uint32_t(e - EMIN) << M) + r;
    return uint8_t(sign | (bits > MAX_BITS ? MAX_BITS : bits));
  }

  static float to_float(uint8_t b) {
    const uint32_t sign = uint32_t(b & 0x80u) << 24, mag = b & 0x7fu;
    const uint32_t exp = mag >> M, man = mag & ((1u << M) - 1u);
    uint32_t out;
    if (E == 4 ? mag == 0x7fu : exp == 0x1fu) { // NaN (or an e5m2 infinity)
      out = E == 5 && man == 0 ? sign | 0x7f800000u : 0x7fffffffu;
    } else if (exp == 0) { // zero or subnormal: man units of 2^(EMIN - M), exact in float
      const float v = float(man) * (E == 4 ? 0x1p-9f : 0x1p-16f);
      return sign ? -v : v;
    } else {
      out = sign | ((exp - BIAS + 127) << 23) | (man << (23 - M));
    }
    float f;
    std::memcpy(&f, &out, 4);
    return f;
  }
};

using fp8_e4m3_format = fp8_format<4, 3>;
using fp8_e5m2_format = fp8_format<5, 2>;

} // namespace detail

/// fp8 with 4 exponent and 3 mantissa bits (CUDA's __nv_fp8_e4m3, Triton's float8e4nv).
struct float8_e4m3 {
  uint8_t bits = 0;
  float8_e4m3() = default;
  float8_e4m3(float f) : bits(detail::fp8_e4m3_format::from_float(f)) {}
  operator float() const { return detail::fp8_e4m3_format::to_float(bits); }
  static float8_e4m3 from_bits(uint8_t b) {
    float8_e4m3 v;
    v.bits = b;
    return v;
  }
};

/// fp8 with 5 exponent and 2 mantissa bits (CUDA's __nv_fp8_e5m2, Triton's float8e5).
struct float8_e5m2 {
  uint8_t bits = 0;
  float8_e5m2() = default;
  float8_e5m2(float f) : bits(detail::fp8_e5m2_format::from_float(f)) {}
  operator float() const { return detail::fp8_e5m2_format::to_float(bits); }
  static float8_e5m2 from_bits(uint8_t b) {
    float8_e5m2 v;
    v.bits = b;
    return v;
  }
};

static_assert(sizeof(float8_e4m3) == 1 && sizeof(float8_e5m2) == 1,
              "fp8 storage types must be 1 byte");

} // namespace tl
