// tilec/tl/traits.h - element-type traits and the one value conversion everything uses.
#pragma once

#include <tilec/types.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace tl::detail {

template <class T>
inline constexpr bool is_half_like_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;
template <class T>
inline constexpr bool is_fp8_v = std::is_same_v<T, float8_e4m3> || std::is_same_v<T, float8_e5m2>;
/// Floats narrower than 32 bits: stored as such, computed in float.
template <class T> inline constexpr bool is_narrow_float_v = is_half_like_v<T> || is_fp8_v<T>;
template <class T>
inline constexpr bool is_float_elem_v = std::is_floating_point_v<T> || is_narrow_float_v<T>;
/// Integers include bool (Triton's int1).
template <class T> inline constexpr bool is_int_elem_v = std::is_integral_v<T>;
/// What a tile may hold as a number (pointer tiles are handled by memory.h).
template <class T> inline constexpr bool is_elem_v = is_float_elem_v<T> || is_int_elem_v<T>;

/// The type host arithmetic runs in: half, bfloat16 and fp8 compute in float.
template <class T> using compute_t = std::conditional_t<is_narrow_float_v<T>, float, T>;

/// The element type arithmetic on T gives: fp8 is a storage type, whose values enter every
/// operation (operators, math functions, reductions) as float and stay float.
template <class T> using arith_t = std::conditional_t<is_fp8_v<T>, float, T>;

/// Integers of a given width and signedness, so `long long` and `long` (both 64-bit
/// on Linux) promote to the same int64_t.
template <int Bits, bool Signed> struct int_of;
template <> struct int_of<8, true> {
  using type = int8_t;
};
template <> struct int_of<16, true> {
  using type = int16_t;
};
template <> struct int_of<32, true> {
  using type = int32_t;
};
template <> struct int_of<64, true> {
  using type = int64_t;
};
template <> struct int_of<8, false> {
  using type = uint8_t;
};
template <> struct int_of<16, false> {
  using type = uint16_t;
};
template <> struct int_of<32, false> {
  using type = uint32_t;
};
template <> struct int_of<64, false> {
  using type = uint64_t;
};

/// The canonical spelling of an element type (char -> int8_t, long long -> int64_t, ...).
template <class T> struct canonical {
  using type = T;
};
template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
struct canonical<T> {
  using type = typename int_of<int(sizeof(T) * 8), std::is_signed_v<T>>::type;
};
template <class T> using canonical_t = typename canonical<std::remove_cvref_t<T>>::type;

/// Unsigned type in which integer + - * wrap without undefined behaviour; at least 32 bits
/// so that narrow operands are not promoted back to (signed) int.
template <class T> using wrap_t = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;

/// Turns a wrapped unsigned result back into R (bool keeps the low bit, like int1).
template <class R, class U> R from_wrapped(U u) {
  if constexpr (std::is_same_v<R, bool>)
    return (u & 1u) != 0;
  else
    return static_cast<R>(u); // modular since C++20
}

/// Float -> integer conversion as the GPU does it (cvt.rzi.sat): truncate toward zero,
/// saturate at the type's limits, NaN gives 0. Plain C++ would be undefined out of range.
template <class To> To float_to_int(double d) {
  if (std::isnan(d))
    return To(0);
  constexpr int bits = int(sizeof(To) * 8);
  using U = std::make_unsigned_t<To>;
  constexpr U umax = U(~U(0));
  if constexpr (std::is_signed_v<To>) {
    const double hi = double(uint64_t(1) << (bits - 1)); // 2^(bits-1)
    if (d >= hi)
      return To(umax >> 1);
    if (d <= -hi)
      return To(-To(umax >> 1) - 1);
    return To(d);
  } else {
    const double hi = bits == 64 ? 18446744073709551616.0 : double(uint64_t(1) << bits);
    if (d >= hi)
      return To(umax);
    if (d <= -1.0)
      return To(0);
    return To(d);
  }
}

/// Converts one value between element types (what tl::cast does to every element).
template <class To, class From> To convert(const From &x) {
  if constexpr (std::is_same_v<To, From>)
    return x;
  else if constexpr (std::is_same_v<To, bool>)
    return compute_t<From>(x) != compute_t<From>(0);
  else if constexpr (is_narrow_float_v<To>)
    return To(static_cast<float>(x));
  else if constexpr (std::is_integral_v<To> && is_float_elem_v<From>)
    return float_to_int<To>(double(compute_t<From>(x)));
  else if constexpr (std::is_floating_point_v<To> && is_narrow_float_v<From>)
    return To(float(x));
  else
    return static_cast<To>(x);
}

} // namespace tl::detail
