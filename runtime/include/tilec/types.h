// tilec/types.h - element types shared by the host vocabulary and the runtime.
//
// tl::half, tl::bfloat16 and the fp8 types are 1- or 2-byte storage types whose
// bit layout matches CUDA's __half / __nv_bfloat16 / __nv_fp8_*; device pointers to them
// are passed to kernels unchanged. Arithmetic on the host converts through float.
// The fp8 types (tl::float8_e4m3, tl::float8_e5m2) are in tilec/fp8.h.
#pragma once

#include <tilec/fp8.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tl {

namespace detail {
inline uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
} // namespace detail

/// IEEE binary16 storage; conversions round to nearest even.
struct half {
  uint16_t bits = 0;
  half() = default;
  half(float f) : bits(from_float(f)) {}
  operator float() const { return to_float(bits); }
  static half from_bits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }

  static uint16_t from_float(float f) {
    uint32_t x = detail::f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // inf or nan
      return uint16_t(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
    if (absx >= 0x477ff000u) // rounds to >= 65520: overflow to inf
      return uint16_t(sign | 0x7c00u);
    if (absx < 0x38800000u) { // result is subnormal (or zero) in half
      // value = absx as float; half subnormal unit is 2^-24
      float v = detail::bits_f32(absx) * 16777216.0f; // scale by 2^24
      // round to nearest even integer
      float r = v + 12582912.0f - 12582912.0f; // 1.5 * 2^23 trick (ties to even)
      return uint16_t(sign | uint32_t(r));
    }
    uint32_t mant_odd = (absx >> 13) & 1u;
    absx += 0xc8000fffu + mant_odd; // rebias exponent (-112 << 23) and round
    return uint16_t(sign | (absx >> 13));
  }
  static float to_float(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0) { // zero or subnormal
      float v = float(mant) * (1.0f / 16777216.0f);
      return sign ? -v : v;
    }
    if (exp == 31)
      return detail::bits_f32(sign | 0x7f800000u | (mant << 13));
    return detail::bits_f32(sign | ((exp + 112) << 23) | (mant << 13));
  }
};

/// bfloat16 storage (upper half of a float); conversions round to nearest even.
struct bfloat16 {
  uint16_t bits = 0;
  bfloat16() = default;
  bfloat16(float f) : bits(from_float(f)) {}
  operator float() const { return detail::bits_f32(uint32_t(bits) << 16); }
  static uint16_t from_float(float f) {
    uint32_t x = detail::f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
      return uint16_t((x >> 16) | 0x40u); // quiet nan
    x += 0x7fffu + ((x >> 16) & 1u);
    return uint16_t(x >> 16);
  }
};

static_assert(sizeof(half) == 2 && sizeof(bfloat16) == 2, "storage types must be 2 bytes");

} // namespace tl

namespace tilec {

/// The spelling of an element type in generated CUDA (template arguments of kernels).
template <class T> constexpr const char *cuda_type_name();
template <> constexpr const char *cuda_type_name<bool>() { return "bool"; }
template <> constexpr const char *cuda_type_name<int8_t>() { return "int8_t"; }
template <> constexpr const char *cuda_type_name<uint8_t>() { return "uint8_t"; }
template <> constexpr const char *cuda_type_name<int16_t>() { return "int16_t"; }
template <> constexpr const char *cuda_type_name<uint16_t>() { return "uint16_t"; }
template <> constexpr const char *cuda_type_name<int32_t>() { return "int32_t"; }
template <> constexpr const char *cuda_type_name<uint32_t>() { return "uint32_t"; }
template <> constexpr const char *cuda_type_name<int64_t>() { return "int64_t"; }
template <> constexpr const char *cuda_type_name<uint64_t>() { return "uint64_t"; }
template <> constexpr const char *cuda_type_name<float>() { return "float"; }
template <> constexpr const char *cuda_type_name<double>() { return "double"; }
template <> constexpr const char *cuda_type_name<tl::half>() { return "tl::half"; }
template <> constexpr const char *cuda_type_name<tl::bfloat16>() { return "tl::bfloat16"; }
template <> constexpr const char *cuda_type_name<tl::float8_e4m3>() { return "tl::float8_e4m3"; }
template <> constexpr const char *cuda_type_name<tl::float8_e5m2>() { return "tl::float8_e5m2"; }

/// Whether a tile of T combined with a scalar of type S keeps the type T (tl/promotion.h, rule
/// 0): kernels over a type parameter assert it where the rule depends on the parameter, since
/// their CUDA spells the result T. Mirrored for device code in tilec/device/common/types.cuh.
template <class X>
inline constexpr int promotion_kind = std::is_same_v<X, bool> ? 0 : std::is_integral_v<X> ? 1 : 2;
template <class T, class S>
inline constexpr bool scalar_keeps_tile_type =
    !std::is_same_v<T, tl::float8_e4m3> && !std::is_same_v<T, tl::float8_e5m2> &&
    promotion_kind<S> <= promotion_kind<T> &&
    !(promotion_kind<T> == 1 && promotion_kind<S> == 1 && sizeof(S) == 8 && sizeof(T) < 8);

// Host mirrors of the device library's element-type functions that generated CUDA spells
// where a type is a template parameter (tilec/device/common/types.cuh), so that a launcher
// can repeat the kernel's static_asserts that name them.

namespace detail {
template <class T>
inline constexpr bool is_half_like_v = std::is_same_v<T, tl::half> || std::is_same_v<T, tl::bfloat16>;
template <class T>
inline constexpr bool is_fp8_host_v =
    std::is_same_v<T, tl::float8_e4m3> || std::is_same_v<T, tl::float8_e5m2>;
template <class T> inline constexpr int type_bits = is_half_like_v<T> ? 16 : int(sizeof(T) * 8);
/// Tile with tile (rules 1-5 of tl/promotion.h) on arithmetic types (fp8 already float).
template <class A, class B> constexpr auto promote_pair() {
  if constexpr (std::is_same_v<A, B>) {
    return static_cast<A *>(nullptr);
  } else if constexpr (is_half_like_v<A> && is_half_like_v<B>) {
    return static_cast<float *>(nullptr); // half with bfloat16
  } else if constexpr ((std::is_same_v<A, tl::bfloat16> && promotion_kind<B> < 2) ||
                       (std::is_same_v<B, tl::bfloat16> && promotion_kind<A> < 2)) {
    return static_cast<float *>(nullptr); // bfloat16 with an integer or bool
  } else {
    constexpr bool a_wins = promotion_kind<A> != promotion_kind<B>
                                ? promotion_kind<A> > promotion_kind<B>
                            : type_bits<A> != type_bits<B> ? type_bits<A> > type_bits<B>
                                                           : !std::is_signed_v<A>;
    return static_cast<std::conditional_t<a_wins, A, B> *>(nullptr);
  }
}
template <class T> using arith_host_t = std::conditional_t<is_fp8_host_v<T>, float, T>;
} // namespace detail

/// The type `/` and `%` of tiles compute in: float for half and bfloat16, else T.
template <class T>
using quotient_t = std::conditional_t<detail::is_half_like_v<T>, float, T>;
/// The type a scalar of type T computes in: int for narrow integers and bool, float for the
/// 16- and 8-bit floats, else T.
template <class T>
using widen_t = std::conditional_t<
    (promotion_kind<T> < 2 && sizeof(T) < 4), int,
    std::conditional_t<(detail::is_half_like_v<T> || detail::is_fp8_host_v<T>), float, T>>;
/// The element type of an operation on tiles of A and of B (fp8 enters as float).
template <class A, class B>
using promote_t = std::remove_pointer_t<decltype(
    detail::promote_pair<detail::arith_host_t<A>, detail::arith_host_t<B>>())>;

} // namespace tilec
