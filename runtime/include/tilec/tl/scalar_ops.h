// tilec/tl/scalar_ops.h - one element of each C++ operator, computed in the result type R.
//
// The GPU wraps integer arithmetic and never traps, so these do too: + - * wrap, division
// by zero and shifts past the width give defined values, and nothing here is undefined
// behaviour (the interpreter runs under sanitizers). On the GPU such values are
// unspecified; kernels should not rely on them.
#pragma once

#include <tilec/tl/traits.h>

namespace tl::detail {

template <class R> inline constexpr bool is_wrapping_int_v = std::is_integral_v<R>;

template <class R, class X, class Y> R op_add(const X &x, const Y &y) {
  if constexpr (is_wrapping_int_v<R>)
    return from_wrapped<R>(wrap_t<R>(convert<R>(x)) + wrap_t<R>(convert<R>(y)));
  else
    return R(compute_t<R>(convert<R>(x)) + compute_t<R>(convert<R>(y)));
}
template <class R, class X, class Y> R op_sub(const X &x, const Y &y) {
  if constexpr (is_wrapping_int_v<R>)
    return from_wrapped<R>(wrap_t<R>(convert<R>(x)) - wrap_t<R>(convert<R>(y)));
  else
    return R(compute_t<R>(convert<R>(x)) - compute_t<R>(convert<R>(y)));
}
template <class R, class X, class Y> R op_mul(const X &x, const Y &y) {
  if constexpr (is_wrapping_int_v<R>)
    return from_wrapped<R>(wrap_t<R>(convert<R>(x)) * wrap_t<R>(convert<R>(y)));
  else
    return R(compute_t<R>(convert<R>(x)) * compute_t<R>(convert<R>(y)));
}

/// Integer division truncates (C++). x / 0 gives all ones (what NVIDIA GPUs return);
/// MIN / -1 wraps to MIN.
template <class R, class X, class Y> R op_div(const X &x, const Y &y) {
  if constexpr (std::is_integral_v<R>) {
    R a = convert<R>(x), b = convert<R>(y);
    if (b == R(0))
      return from_wrapped<R>(~wrap_t<R>(0));
    if constexpr (std::is_signed_v<R>)
      if (b == R(-1))
        return op_sub<R>(R(0), a);
    return R(a / b);
  } else {
    return R(compute_t<R>(convert<R>(x)) / compute_t<R>(convert<R>(y)));
  }
}
/// Integer remainder has the dividend's sign (C++); x % 0 gives x. Floats use fmod.
template <class R, class X, class Y> R op_mod(const X &x, const Y &y) {
  if constexpr (std::is_integral_v<R>) {
    R a = convert<R>(x), b = convert<R>(y);
    if (b == R(0))
      return a;
    if constexpr (std::is_signed_v<R>)
      if (b == R(-1))
        return R(0);
    return R(a % b);
  } else {
    return R(std::fmod(compute_t<R>(convert<R>(x)), compute_t<R>(convert<R>(y))));
  }
}

// Through the unsigned wrap type: bool operands stay bitwise without clang's
// -Wbitwise-instead-of-logical, and signed values keep their bits.
template <class R, class X, class Y> R op_and(const X &x, const Y &y) {
  return from_wrapped<R>(wrap_t<R>(convert<R>(x)) & wrap_t<R>(convert<R>(y)));
}
template <class R, class X, class Y> R op_or(const X &x, const Y &y) {
  return from_wrapped<R>(wrap_t<R>(convert<R>(x)) | wrap_t<R>(convert<R>(y)));
}
template <class R, class X, class Y> R op_xor(const X &x, const Y &y) {
  return from_wrapped<R>(wrap_t<R>(convert<R>(x)) ^ wrap_t<R>(convert<R>(y)));
}

/// Shift amounts at or past the width (or negative) give 0, like PTX's clamped shl.
template <class R, class X, class Y> R op_shl(const X &x, const Y &y) {
  using U = wrap_t<R>;
  U amount = U(convert<R>(y));
  if (amount >= U(sizeof(R) * 8))
    return R(0);
  return from_wrapped<R>(U(convert<R>(x)) << amount);
}
/// Right shift is arithmetic for signed types; past the width it fills with the sign.
template <class R, class X, class Y> R op_shr(const X &x, const Y &y) {
  using U = wrap_t<R>;
  R a = convert<R>(x);
  U amount = U(convert<R>(y));
  if (amount >= U(sizeof(R) * 8)) {
    if constexpr (std::is_signed_v<R>)
      return a < R(0) ? R(-1) : R(0);
    else
      return R(0);
  }
  return R(a >> amount);
}

template <class R, class X, class Y> bool op_eq(const X &x, const Y &y) {
  return compute_t<R>(convert<R>(x)) == compute_t<R>(convert<R>(y));
}
template <class R, class X, class Y> bool op_ne(const X &x, const Y &y) {
  return compute_t<R>(convert<R>(x)) != compute_t<R>(convert<R>(y));
}
template <class R, class X, class Y> bool op_lt(const X &x, const Y &y) {
  return compute_t<R>(convert<R>(x)) < compute_t<R>(convert<R>(y));
}
template <class R, class X, class Y> bool op_le(const X &x, const Y &y) {
  return compute_t<R>(convert<R>(x)) <= compute_t<R>(convert<R>(y));
}
template <class R, class X, class Y> bool op_gt(const X &x, const Y &y) {
  return compute_t<R>(convert<R>(x)) > compute_t<R>(convert<R>(y));
}
template <class R, class X, class Y> bool op_ge(const X &x, const Y &y) {
  return compute_t<R>(convert<R>(x)) >= compute_t<R>(convert<R>(y));
}

} // namespace tl::detail
