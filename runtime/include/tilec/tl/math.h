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

#undef TILEC_DETAIL_FLOAT_UNARY

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
