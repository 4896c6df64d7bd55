// tilec/tl/operators.h - C++ operators on tiles (a tile with a tile or with a scalar).
//
// Operators only apply when at least one operand is a tile, so scalar code in kernels
// keeps plain C++ semantics. Result types follow promotion.h; shapes broadcast.
#pragma once

#include <tilec/tl/promotion.h>
#include <tilec/tl/scalar_ops.h>

namespace tl {
namespace detail {

/// Operands of a tile operator: numbers, at least one of them a tile.
template <class X, class Y>
concept tile_operands = (is_tile_v<X> || is_tile_v<Y>) && is_operand_v<X> && is_operand_v<Y>;

template <class X, class Y>
concept int_tile_operands = tile_operands<X, Y> && is_int_elem_v<promote_t<X, Y>>;

} // namespace detail

// Arithmetic.
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator+(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_add<R>(a, b); }, x, y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator-(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_sub<R>(a, b); }, x, y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator*(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_mul<R>(a, b); }, x, y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator/(const X &x, const Y &y) {
  using R = detail::promote_div_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_div<R>(a, b); }, x, y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator%(const X &x, const Y &y) {
  using R = detail::promote_div_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_mod<R>(a, b); }, x, y);
}

// Bitwise operators and shifts: integers only.
template <class X, class Y>
  requires detail::int_tile_operands<X, Y>
auto operator&(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_and<R>(a, b); }, x, y);
}
template <class X, class Y>
  requires detail::int_tile_operands<X, Y>
auto operator|(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_or<R>(a, b); }, x, y);
}
template <class X, class Y>
  requires detail::int_tile_operands<X, Y>
auto operator^(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_xor<R>(a, b); }, x, y);
}
template <class X, class Y>
  requires detail::int_tile_operands<X, Y>
auto operator<<(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_shl<R>(a, b); }, x, y);
}
template <class X, class Y>
  requires detail::int_tile_operands<X, Y>
auto operator>>(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<R>([](const auto &a, const auto &b) { return detail::op_shr<R>(a, b); }, x, y);
}

// Comparisons give tile<bool>.
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator==(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<bool>([](const auto &a, const auto &b) { return detail::op_eq<R>(a, b); }, x,
                           y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator!=(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<bool>([](const auto &a, const auto &b) { return detail::op_ne<R>(a, b); }, x,
                           y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator<(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<bool>([](const auto &a, const auto &b) { return detail::op_lt<R>(a, b); }, x,
                           y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator<=(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<bool>([](const auto &a, const auto &b) { return detail::op_le<R>(a, b); }, x,
                           y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator>(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<bool>([](const auto &a, const auto &b) { return detail::op_gt<R>(a, b); }, x,
                           y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator>=(const X &x, const Y &y) {
  using R = detail::promote_t<X, Y>;
  return detail::map<bool>([](const auto &a, const auto &b) { return detail::op_ge<R>(a, b); }, x,
                           y);
}

// Logical operators: operands are tested against zero (Triton's logical_and/or); they do
// not short-circuit on tiles.
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator&&(const X &x, const Y &y) {
  return detail::map<bool>(
      [](const auto &a, const auto &b) {
        return detail::convert<bool>(a) && detail::convert<bool>(b);
      },
      x, y);
}
template <class X, class Y>
  requires detail::tile_operands<X, Y>
auto operator||(const X &x, const Y &y) {
  return detail::map<bool>(
      [](const auto &a, const auto &b) {
        return detail::convert<bool>(a) || detail::convert<bool>(b);
      },
      x, y);
}

// Unary operators keep the tile's type (fp8 gives float, as in every operation).
template <class T, int... D>
  requires detail::is_elem_v<T>
tile<detail::arith_t<T>, D...> operator+(const tile<T, D...> &t) {
  using R = detail::arith_t<T>;
  return detail::map<R>([](const T &a) { return detail::convert<R>(a); }, t);
}
template <class T, int... D>
  requires detail::is_elem_v<T>
tile<detail::arith_t<T>, D...> operator-(const tile<T, D...> &t) {
  using R = detail::arith_t<T>;
  return detail::map<R>([](const T &a) { return detail::op_sub<R>(R(0), a); }, t);
}
template <class T, int... D>
  requires detail::is_int_elem_v<T>
tile<T, D...> operator~(const tile<T, D...> &t) {
  return detail::map<T>(
      [](const T &a) {
        if constexpr (std::is_same_v<T, bool>)
          return !a; // int1: ~ flips the one bit
        else
          return T(~a);
      },
      t);
}
template <class T, int... D>
  requires detail::is_elem_v<T>
tile<bool, D...> operator!(const tile<T, D...> &t) {
  return detail::map<bool>([](const T &a) { return !detail::convert<bool>(a); }, t);
}

} // namespace tl
