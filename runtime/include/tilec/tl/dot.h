// tilec/tl/dot.h - matrix product of tiles: tl::dot(a, b), tl::dot(a, b, acc[, precision]),
// tl::dot<Out>(...) for Triton's out_dtype.
//
//   a [M, K] x b [K, N] (+ acc [M, N]) -> [M, N] in the accumulation type:
//     half, bfloat16, float8_e4m3, float8_e5m2 (any float narrower than 32 bits) -> float
//     float -> float, double -> double, int8 -> int32
//   a and b have the same element type; acc, when given, has exactly the result's type and
//   shape (Triton's default out_dtype; tl::dot<Out> below for another).
//
// Order: every result element starts from acc and adds a[i, k] * b[k, j] for k = 0, 1, ...
// one product at a time in the accumulation type (a fused multiply-add for floats; integers
// wrap). Products of half, bfloat16, fp8 and tf32 values are exact in float, so only the sum
// rounds; the GPU's tensor cores sum in another order and may differ by rounding (the fp8
// tensor cores of sm_89 and sm_90 are measured to keep only about 14 significant bits of
// their sums, truncated, so fp8 results may differ more).
//
// tl::dot<Out>(a, b[, acc[, precision]]) is Triton's out_dtype: Out is the accumulation type
// above (float, the default), or tl::half for half and fp8 operands: the product is summed in
// float, starting from acc (a tl::half tile) converted to float, and the result rounded to half
// once per call (the GPU does the same). Triton computes float and bfloat16 operands in float
// whatever out_dtype says, and has no bfloat16 out_dtype: both are refused here.
//
// precision (Triton's input_precision) matters for float inputs only: tf32, the default,
// rounds each operand to tf32 (10 mantissa bits, to nearest, ties away from zero, as CUDA's
// cvt.rna.tf32.f32) before multiplying, as the tensor cores see it; ieee keeps full floats.
#pragma once

#include <tilec/tl/elementwise.h>
#include <tilec/tl/tile.h>

#include <cmath>
#include <cstring>

namespace tl {

/// How float operands of tl::dot are multiplied (Triton's input_precision).
enum class precision { tf32, ieee };

namespace detail {

/// The accumulation type of tl::dot for inputs of type T; void when T is not supported.
template <class T>
using dot_acc_t = std::conditional_t<
    std::is_same_v<T, int8_t>, int32_t,
    std::conditional_t<std::is_same_v<T, double>, double,
                       std::conditional_t<is_float_elem_v<T> && (sizeof(T) <= 4), float, void>>>;

/// x rounded to tf32 (8-bit exponent, 10-bit mantissa): to nearest, ties away from zero.
/// Adding half a unit of the 13 dropped bits to the magnitude carries into the kept ones
/// exactly when the dropped part is at least half; overflow correctly gives infinity.
inline float round_to_tf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) == 0x7f800000u) // inf and NaN stay as they are
    return x;
  u = (u + 0x1000u) & 0xffffe000u;
  std::memcpy(&x, &u, 4);
  return x;
}

/// Dimension i of shape S, or 1 when S has no such axis (keeps error messages to one).
template <class S> constexpr int dim_or_1(int i) { return i < S::rank ? S::value[i] : 1; }

/// The types and shapes of tl::dot(a, b), checked once for every overload.
template <class A, class B> struct dot_types {
  using T = elem_t<A>;
  static constexpr bool ranks_ok = shape_t<A>::rank == 2 && shape_t<B>::rank == 2;
  static_assert(ranks_ok, "tl::dot needs rank-2 tiles: a [M, K] and b [K, N]");
  static_assert(std::is_same_v<T, elem_t<B>>,
                "tl::dot needs a and b of the same element type (cast one first)");
  static_assert(!std::is_void_v<dot_acc_t<T>>,
                "tl::dot supports tiles of half, bfloat16, float8_e4m3, float8_e5m2, float, "
                "double and int8_t");
  static constexpr int M = dim_or_1<shape_t<A>>(0), K = dim_or_1<shape_t<A>>(1);
  static constexpr int N = dim_or_1<shape_t<B>>(1);
  static_assert(!ranks_ok || K == dim_or_1<shape_t<B>>(0),
                "tl::dot: a's columns must equal b's rows ([M, K] x [K, N])");
  using acc_elem = std::conditional_t<std::is_void_v<dot_acc_t<T>>, float, dot_acc_t<T>>;
  using result = tile<acc_elem, M, N>;
};

/// One operand value as it enters the product.
template <class Acc, class T> Acc dot_operand(const T &v, precision p) {
  if constexpr (std::is_same_v<T, float>)
    return p == precision::tf32 ? round_to_tf32(v) : v;
  else
    return convert<Acc>(v);
}

/// r + x * y in the accumulation type.
template <class Acc> Acc dot_step(Acc r, Acc x, Acc y) {
  if constexpr (std::is_integral_v<Acc>)
    return from_wrapped<Acc>(wrap_t<Acc>(r) + wrap_t<Acc>(x) * wrap_t<Acc>(y));
  else
    return std::fma(x, y, r);
}

} // namespace detail

/// a [M, K] x b [K, N] + acc [M, N]; acc has the accumulation type (see above).
template <class A, class B, class C>
  requires(detail::is_tile_v<A> && detail::is_tile_v<B>)
auto dot(const A &a, const B &b, const C &acc, precision p = precision::tf32) {
  using D = detail::dot_types<A, B>;
  using R = typename D::result;
  using Acc = typename D::acc_elem;
  static_assert(detail::is_tile_v<C>, "tl::dot: acc must be a tile [M, N]");
  static_assert(!detail::is_tile_v<C> || std::is_same_v<detail::elem_t<C>, Acc>,
                "tl::dot: acc must have the accumulation type: float for half, bfloat16, fp8 "
                "and float inputs, double for double, int32_t for int8_t");
  static_assert(!detail::is_tile_v<C> || std::is_same_v<detail::shape_t<C>, detail::shape_t<R>>,
                "tl::dot: acc must have the result's shape [M, N]");
  constexpr int M = D::M, N = D::N, K = D::K;
  R out;
  if constexpr (detail::is_tile_v<C> && std::is_same_v<std::remove_cvref_t<C>, R>) {
    out = acc;
    // Row by row, k outer: each element still adds its products in k order.
    Acc brow[N];
    for (int k = 0; k < K; ++k) {
      for (int j = 0; j < N; ++j)
        brow[j] = detail::dot_operand<Acc>(b.elems[k * N + j], p);
      for (int i = 0; i < M; ++i) {
        const Acc x = detail::dot_operand<Acc>(a.elems[i * K + k], p);
        for (int j = 0; j < N; ++j)
          out.elems[i * N + j] = detail::dot_step(out.elems[i * N + j], x, brow[j]);
      }
    }
  }
  return out;
}

/// a [M, K] x b [K, N], accumulated from zero.
template <class A, class B>
  requires(detail::is_tile_v<A> && detail::is_tile_v<B>)
auto dot(const A &a, const B &b) {
  return dot(a, b, typename detail::dot_types<A, B>::result{});
}

namespace detail {

/// Whether tl::dot<Out> is available for operands of type T (see the header comment).
template <class Out, class T>
inline constexpr bool dot_out_ok_v =
    std::is_same_v<Out, dot_acc_t<T>> ||
    (std::is_same_v<Out, half> && (std::is_same_v<T, half> || is_fp8_v<T>));

template <class Out, class A, class B> constexpr void check_dot_out() {
  using T = elem_t<A>;
  static_assert(!std::is_same_v<Out, bfloat16>,
                "tl::dot<tl::bfloat16>: Triton has no bfloat16 out_dtype; write "
                "tl::cast<tl::bfloat16>(tl::dot(a, b))");
  static_assert(std::is_same_v<Out, bfloat16> || !std::is_same_v<Out, half> ||
                    dot_out_ok_v<Out, T>,
                "tl::dot<tl::half> needs half or fp8 operands (Triton computes float and "
                "bfloat16 ones in float whatever out_dtype says); cast the result");
  static_assert(std::is_same_v<Out, bfloat16> || std::is_same_v<Out, half> ||
                    dot_out_ok_v<Out, T>,
                "tl::dot<Out>: Out (Triton's out_dtype) must be the accumulation type (float "
                "for floats, int32_t for int8_t), or tl::half for half and fp8 operands");
}

} // namespace detail

/// tl::dot with Triton's out_dtype: a [M, K] x b [K, N] + acc [M, N], acc and the result of
/// type Out (see the header comment).
template <class Out, class A, class B, class C>
  requires(detail::is_elem_v<Out> && detail::is_tile_v<A> && detail::is_tile_v<B>)
auto dot(const A &a, const B &b, const C &acc, precision p = precision::tf32) {
  detail::check_dot_out<Out, A, B>();
  static_assert(!detail::is_tile_v<C> || std::is_same_v<detail::elem_t<C>, Out>,
                "tl::dot<Out>: acc must hold Out");
  using Acc = typename detail::dot_types<A, B>::acc_elem;
  if constexpr (std::is_same_v<Out, Acc>)
    return dot(a, b, acc, p);
  else
    return cast<Out>(dot(a, b, cast<Acc>(acc), p));
}

/// tl::dot<Out>(a, b): accumulated from zero, the result of type Out.
template <class Out, class A, class B>
  requires(detail::is_elem_v<Out> && detail::is_tile_v<A> && detail::is_tile_v<B>)
auto dot(const A &a, const B &b) {
  detail::check_dot_out<Out, A, B>();
  return cast<Out>(dot(a, b));
}

} // namespace tl
