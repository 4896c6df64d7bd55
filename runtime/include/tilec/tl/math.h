// tilec/tl/math.h - math functions on tiles and scalars alike.
//
// Transcendentals take floating-point operands (cast integers first, as in Triton) and
// keep the operand's type; half and bfloat16 compute in float and round back, fp8 computes
// in float and gives float. The host uses <cmath>, so results match the GPU up to the last
// bits.
#pragma once

#include <tilec/tl/elementwise.h>

namespace tl {
namespace detail {

/// Applies f to each element in the compute type of a floating-point operand.
template <class X, class F> auto float_unary(const X &x, F f) {
  using T = elem_t<X>;
  static_assert(is_float_elem_v<T>, "this tl:: math function needs a floating-point operand; "
                                    "use tl::cast<float>(x) first");
  using R = arith_t<T>;
  return map<R>([f](const auto &v) { return R(f(compute_t<T>(v))); }, x);
}

} // namespace detail

#define TILEC_DETAIL_FLOAT_UNARY(NAME, EXPR)                                                       \
  template <class X>                                                                               \
    requires detail::is_operand_v<X>                                                               \
  auto NAME(const X &x) {                                                                          \
    return detail::float_unary(x, [](auto v) { return EXPR; });                                    \
  }

TILEC_DETAIL_FLOAT_UNARY(exp, std::exp(v))
TILEC_DETAIL_FLOAT_UNARY(exp2, std::exp2(v))
TILEC_DETAIL_FLOAT_UNARY(log, std::log(v))
TILEC_DETAIL_FLOAT_UNARY(log2, std::log2(v))
TILEC_DETAIL_FLOAT_UNARY(sqrt, std::sqrt(v))
// Triton's IEEE square root; tl::sqrt is correctly rounded on the GPU as well (CUDA's sqrtf).
TILEC_DETAIL_FLOAT_UNARY(sqrt_rn, std::sqrt(v))
TILEC_DETAIL_FLOAT_UNARY(rsqrt, decltype(v)(1) / std::sqrt(v))
TILEC_DETAIL_FLOAT_UNARY(sin, std::sin(v))
TILEC_DETAIL_FLOAT_UNARY(cos, std::cos(v))
TILEC_DETAIL_FLOAT_UNARY(tanh, std::tanh(v))
TILEC_DETAIL_FLOAT_UNARY(erf, std::erf(v))
TILEC_DETAIL_FLOAT_UNARY(sigmoid, decltype(v)(1) / (decltype(v)(1) + std::exp(-v)))
TILEC_DETAIL_FLOAT_UNARY(floor, std::floor(v))
TILEC_DETAIL_FLOAT_UNARY(ceil, std::ceil(v))
// Triton's libdevice functions (triton.language.extra.libdevice) that kernels call most.
TILEC_DETAIL_FLOAT_UNARY(tan, std::tan(v))
TILEC_DETAIL_FLOAT_UNARY(asin, std::asin(v))
TILEC_DETAIL_FLOAT_UNARY(acos, std::acos(v))
TILEC_DETAIL_FLOAT_UNARY(atan, std::atan(v))
TILEC_DETAIL_FLOAT_UNARY(sinh, std::sinh(v))
TILEC_DETAIL_FLOAT_UNARY(cosh, std::cosh(v))
TILEC_DETAIL_FLOAT_UNARY(asinh, std::asinh(v))
TILEC_DETAIL_FLOAT_UNARY(acosh, std::acosh(v))
TILEC_DETAIL_FLOAT_UNARY(atanh, std::atanh(v))
TILEC_DETAIL_FLOAT_UNARY(log10, std::log10(v))
TILEC_DETAIL_FLOAT_UNARY(log1p, std::log1p(v))
TILEC_DETAIL_FLOAT_UNARY(expm1, std::expm1(v))
TILEC_DETAIL_FLOAT_UNARY(erfc, std::erfc(v))
TILEC_DETAIL_FLOAT_UNARY(trunc, std::trunc(v))
TILEC_DETAIL_FLOAT_UNARY(rint, std::nearbyint(v)) // to nearest, ties to even

#undef TILEC_DETAIL_FLOAT_UNARY

namespace detail {
/// Applies f to each pair of elements in the compute type of the operands' promoted type,
/// which must be floating point.
template <class A, class B, class F> auto float_binary(const A &a, const B &b, F f) {
  using R = promote_t<A, B>;
  static_assert(is_float_elem_v<R>, "this tl:: math function needs floating-point operands; "
                                    "use tl::cast<float>(x) first");
  using K = compute_t<R>;
  return map<R>([f](const auto &x, const auto &y) { return R(f(K(convert<R>(x)), K(convert<R>(y)))); },
                a, b);
}
} // namespace detail

/// x to the power y (libdevice's pow), the arc tangent of y / x in the right quadrant (atan2)
/// and sqrt(x^2 + y^2) without overflow (hypot); operands promote as for `+`.
#define TILEC_DETAIL_FLOAT_BINARY(NAME, EXPR)                                                      \
  template <class A, class B>                                                                      \
    requires detail::is_operand_v<A> && detail::is_operand_v<B>                                    \
  auto NAME(const A &a, const B &b) {                                                              \
    return detail::float_binary(a, b, [](auto x, auto y) { return EXPR; });                        \
  }
TILEC_DETAIL_FLOAT_BINARY(pow, std::pow(x, y))
TILEC_DETAIL_FLOAT_BINARY(atan2, std::atan2(x, y))
TILEC_DETAIL_FLOAT_BINARY(hypot, std::hypot(x, y))
#undef TILEC_DETAIL_FLOAT_BINARY

/// Absolute value of integers and floats; abs(INT_MIN) wraps to INT_MIN as on the GPU.
template <class X>
  requires detail::is_operand_v<X>
auto abs(const X &x) {
  using T = detail::elem_t<X>;
  using R = detail::arith_t<T>;
  return detail::map<R>(
      [](const auto &v) {
        if constexpr (detail::is_float_elem_v<T>)
          return R(std::fabs(detail::compute_t<T>(v)));
        else if constexpr (std::is_signed_v<T>)
          return v < T(0) ? detail::op_sub<T>(T(0), v) : T(v);
        else
          return T(v);
      },
      x);
}

/// a * b + c with one rounding; operands promote together (floating point only).
template <class A, class B, class C>
  requires detail::is_operand_v<A> && detail::is_operand_v<B> && detail::is_operand_v<C>
auto fma(const A &a, const B &b, const C &c) {
  using R = detail::promote_all_t<A, B, C>;
  static_assert(detail::is_float_elem_v<R>, "tl::fma needs floating-point operands");
  using K = detail::compute_t<R>;
  return detail::map<R>(
      [](const auto &x, const auto &y, const auto &z) {
        return R(
            std::fma(K(detail::convert<R>(x)), K(detail::convert<R>(y)), K(detail::convert<R>(z))));
      },
      a, b, c);
}

} // namespace tl
