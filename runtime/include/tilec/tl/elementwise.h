// tilec/tl/elementwise.h - element-wise functions on tiles and scalars alike: where,
// maximum/minimum/clamp, cdiv, umulhi, cast, bitcast. Math functions are in math.h.
#pragma once

#include <tilec/tl/operators.h>

#include <cstring>

namespace tl {

/// cond ? a : b per element; a and b promote together (promotion.h) and all three broadcast.
template <class C, class A, class B>
  requires detail::is_operand_v<C> && detail::is_operand_v<A> && detail::is_operand_v<B>
auto where(const C &cond, const A &a, const B &b) {
  using R = detail::promote_t<A, B>;
  return detail::map<R>(
      [](const auto &c, const auto &x, const auto &y) {
        return detail::convert<bool>(c) ? detail::convert<R>(x) : detail::convert<R>(y);
      },
      cond, a, b);
}

/// Larger of the two; for floats a NaN loses to a number (like fmaxf on the GPU).
template <class A, class B>
  requires detail::is_operand_v<A> && detail::is_operand_v<B>
auto maximum(const A &a, const B &b) {
  using R = detail::promote_t<A, B>;
  return detail::map<R>(
      [](const auto &x, const auto &y) {
        using C = detail::compute_t<R>;
        C u = C(detail::convert<R>(x)), v = C(detail::convert<R>(y));
        if constexpr (detail::is_float_elem_v<R>)
          return R(std::fmax(u, v));
        else
          return R(u < v ? v : u);
      },
      a, b);
}

/// Smaller of the two; for floats a NaN loses to a number (like fminf on the GPU).
template <class A, class B>
  requires detail::is_operand_v<A> && detail::is_operand_v<B>
auto minimum(const A &a, const B &b) {
  using R = detail::promote_t<A, B>;
  return detail::map<R>(
      [](const auto &x, const auto &y) {
        using C = detail::compute_t<R>;
        C u = C(detail::convert<R>(x)), v = C(detail::convert<R>(y));
        if constexpr (detail::is_float_elem_v<R>)
          return R(std::fmin(u, v));
        else
          return R(v < u ? v : u);
      },
      a, b);
}

/// minimum(maximum(x, lo), hi).
template <class X, class L, class H>
  requires detail::is_operand_v<X> && detail::is_operand_v<L> && detail::is_operand_v<H>
auto clamp(const X &x, const L &lo, const H &hi) {
  return minimum(maximum(x, lo), hi);
}

/// Ceiling division of integers: (a + b - 1) / b.
template <class A, class B>
  requires detail::is_operand_v<A> && detail::is_operand_v<B>
auto cdiv(const A &a, const B &b) {
  using R = detail::promote_div_t<A, B>;
  static_assert(detail::is_int_elem_v<R>, "tl::cdiv needs integers");
  return detail::map<R>(
      [](const auto &x, const auto &y) {
        R d = detail::convert<R>(y);
        return detail::op_div<R>(detail::op_sub<R>(detail::op_add<R>(x, d), R(1)), d);
      },
      a, b);
}

/// Division rounded to nearest (IEEE), as Triton's div_rn. A tile's `/` of floats on the GPU
/// is Triton's default, an approximate division (within 2 ulp, tl::fdiv below); here both are
/// exact, as the interpreter is the reference.
template <class A, class B>
  requires detail::is_operand_v<A> && detail::is_operand_v<B>
auto div_rn(const A &a, const B &b) {
  using R = detail::promote_div_t<A, B>;
  static_assert(!detail::is_int_elem_v<R>, "tl::div_rn and tl::fdiv need floating-point operands");
  return detail::map<R>([](const auto &x, const auto &y) { return detail::op_div<R>(x, y); }, a, b);
}

/// Approximate division (Triton's fdiv with ieee_rounding=False, which its `/` of floats is):
/// within 2 ulp on the GPU; exact in the interpreter.
template <class A, class B>
  requires detail::is_operand_v<A> && detail::is_operand_v<B>
auto fdiv(const A &a, const B &b) {
  return div_rn(a, b);
}

/// The high half of the double-width product of two integers, taken as unsigned
/// (Triton's umulhi, math.mulhiui): umulhi(0x80000000u, 4u) == 2.
template <class A, class B>
  requires detail::is_operand_v<A> && detail::is_operand_v<B>
auto umulhi(const A &a, const B &b) {
  using R = detail::promote_t<A, B>;
  static_assert(detail::is_int_elem_v<R> && !std::is_same_v<R, bool>, "tl::umulhi needs integers");
  return detail::map<R>(
      [](const auto &x, const auto &y) {
        using U = std::make_unsigned_t<R>;
        constexpr int bits = int(sizeof(R) * 8);
        U u = U(detail::convert<R>(x)), v = U(detail::convert<R>(y));
        if constexpr (bits == 64) {
          __extension__ using u128 = unsigned __int128;
          return R(U((u128(u) * u128(v)) >> 64));
        } else {
          return R(U((uint64_t(u) * uint64_t(v)) >> bits));
        }
      },
      a, b);
}

/// Converts every element to T (float -> integer truncates and saturates, NaN gives 0).
template <class T, class X>
  requires detail::is_operand_v<X>
auto cast(const X &x) {
  return detail::map<T>([](const auto &v) { return detail::convert<T>(v); }, x);
}

/// Reinterprets the bits of every element as T (same size).
template <class T, class X>
  requires detail::is_operand_v<X>
auto bitcast(const X &x) {
  using E = detail::elem_t<X>;
  static_assert(sizeof(T) == sizeof(E), "tl::bitcast needs element types of the same size");
  static_assert(!std::is_same_v<T, bool> && !std::is_same_v<E, bool>,
                "tl::bitcast does not take bool");
  return detail::map<T>(
      [](const E &v) {
        T r;
        std::memcpy(&r, &v, sizeof(T));
        return r;
      },
      x);
}

} // namespace tl
