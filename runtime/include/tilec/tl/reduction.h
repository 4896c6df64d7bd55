// tilec/tl/reduction.h - reductions: sum, max, min, argmax, argmin, xor_sum, reduce.
//
//   tl::sum(t)           every element -> a scalar (Triton's axis=None)
//   tl::sum<AXIS>(t)     one axis: rank 1 -> a scalar, rank 2/3 -> a tile of rank one less
//   tl::sum<AXIS, true>  keeps the reduced axis with size 1 (keep_dims=True);
//                        tl::sum<tl::all_axes, true>(t) gives a tile of ones' shape
//
// Order: along the axis the values combine as a pairwise tree in index order: level 1
// combines (x0, x1), (x2, x3), ..., the next level the pairs of those, and so on (every
// axis is a power of two). Floating-point results may differ from the GPU's by rounding.
//
// Result types (Triton's rules, triton/language/standard.py):
//  - sum and cumsum: int8/int16 -> int32; bool/uint8/uint16 -> uint32 (bool is Triton's
//    unsigned int1); fp8 -> float; every other type is kept, and each partial sum is rounded
//    to it: a half sum adds in half. Cast to float first for a float accumulation.
//  - max, min: half, bfloat16 and fp8 -> float; integers narrower than 32 bits (bool
//    included) -> int32. For floats a NaN loses to a number (fmax/fmin); the result is NaN only
//    when every value is NaN.
//  - argmax, argmin: int32, the index along the axis (the row-major flat index for all
//    axes) of the value max/min returns; among equal values the smallest index. NaNs are
//    skipped as in max/min; all NaN gives index 0.
//  - xor_sum: integers only, in the tile's type.
//  - reduce(t, combine): the tile's type; combine(a, b) takes two scalars of it (a from
//    lower indices) and must be associative.
#pragma once

#include <tilec/tl/elementwise.h>
#include <tilec/tl/shape.h>

namespace tl {

/// The AXIS of a reduction meaning every axis (Triton's axis=None).
inline constexpr int all_axes = 1 << 30;

namespace detail {

/// Sum/cumsum element type (Triton's _pick_sum_dtype).
template <class T>
using sum_t =
    std::conditional_t<is_int_elem_v<T> && int_bits<T>() < 32,
                       std::conditional_t<int_signed<T>(), int32_t, uint32_t>, arith_t<T>>;

/// max/min element type: 8- and 16-bit floats and narrow integers widen to 32 bits.
template <class T>
using minmax_t =
    std::conditional_t<is_narrow_float_v<T>, float,
                       std::conditional_t<is_int_elem_v<T> && int_bits<T>() < 32, int32_t, T>>;

/// Combines buf[0..n) (n a power of two) as a pairwise tree in index order.
template <class A, class F> A tree_combine(A *buf, int n, const F &f) {
  for (int w = n; w > 1; w /= 2)
    for (int i = 0; i < w / 2; ++i)
      buf[i] = f(buf[2 * i], buf[2 * i + 1]);
  return buf[0];
}

/// Reduces t over AXIS: every element becomes leaf(value, index along the axis), they
/// combine as a tree, and finish(result) is stored.
template <int AXIS, bool KEEP, class T, int... D, class Leaf, class Combine, class Finish>
auto reduce_with(const tile<T, D...> &t, const Leaf &leaf, const Combine &combine,
                 const Finish &finish) {
  using S = dims<D...>;
  using Acc = decltype(leaf(t.elems[0], 0));
  using R = decltype(finish(std::declval<Acc>()));
  if constexpr (AXIS == all_axes) {
    Acc buf[S::size];
    for (int i = 0; i < S::size; ++i)
      buf[i] = leaf(t.elems[i], i);
    R v = finish(tree_combine(buf, S::size, combine));
    if constexpr (KEEP) {
      tile<R, (D * 0 + 1)...> r;
      r.elems[0] = v;
      return r;
    } else {
      return v;
    }
  } else {
    constexpr int a = norm_axis<AXIS, S::rank>();
    constexpr int n = S::value[a], inner = dims_product<S>(a + 1, S::rank);
    constexpr int outer = dims_product<S>(0, a);
    tile_of_t<R, typename drop_axis<S, a, KEEP>::type> r{};
    Acc buf[n];
    for (int o = 0; o < outer; ++o)
      for (int i = 0; i < inner; ++i) {
        for (int k = 0; k < n; ++k)
          buf[k] = leaf(t.elems[(o * n + k) * inner + i], k);
        R v = finish(tree_combine(buf, n, combine));
        if constexpr (S::rank == 1 && !KEEP)
          r = v;
        else
          r.elems[o * inner + i] = v;
      }
    return r;
  }
}

/// Reduction of values of type R with a binary operation.
template <int AXIS, bool KEEP, class R, class T, int... D, class Op>
auto reduce_values(const tile<T, D...> &t, const Op &op) {
  return reduce_with<AXIS, KEEP>(
      t, [](const T &v, int) { return convert<R>(v); }, op, [](const R &v) { return v; });
}

template <class R> R max_of(const R &a, const R &b) {
  if constexpr (is_float_elem_v<R>)
    return R(std::fmax(a, b));
  else
    return a < b ? b : a;
}
template <class R> R min_of(const R &a, const R &b) {
  if constexpr (is_float_elem_v<R>)
    return R(std::fmin(a, b));
  else
    return b < a ? b : a;
}

/// A value and its index, for argmax/argmin.
template <class V> struct indexed {
  V v;
  int32_t i;
};

/// The better of two indexed values (GREATER: argmax); NaN loses, ties go to the lower
/// index. Associative and commutative, so the tree shape does not change the result.
template <bool GREATER, class V> indexed<V> pick(const indexed<V> &a, const indexed<V> &b) {
  if constexpr (is_float_elem_v<V>) {
    const bool an = std::isnan(a.v), bn = std::isnan(b.v);
    if (an != bn)
      return an ? b : a;
  }
  if (GREATER ? b.v > a.v : b.v < a.v)
    return b;
  if (GREATER ? a.v > b.v : a.v < b.v)
    return a;
  return b.i < a.i ? b : a;
}

template <int AXIS, bool KEEP, bool GREATER, class T, int... D>
auto arg_reduce(const tile<T, D...> &t) {
  using V = minmax_t<T>;
  return reduce_with<AXIS, KEEP>(
      t, [](const T &v, int i) { return indexed<V>{convert<V>(v), i}; },
      [](const indexed<V> &a, const indexed<V> &b) { return pick<GREATER>(a, b); },
      [](const indexed<V> &x) { return x.i; });
}

} // namespace detail

/// Sum (see the result types above).
template <int AXIS = all_axes, bool KEEP_DIMS = false, class T, int... D>
  requires detail::is_elem_v<T>
auto sum(const tile<T, D...> &t) {
  using R = detail::sum_t<T>;
  return detail::reduce_values<AXIS, KEEP_DIMS, R>(
      t, [](const R &a, const R &b) { return detail::op_add<R>(a, b); });
}

/// Maximum; a NaN loses to a number.
template <int AXIS = all_axes, bool KEEP_DIMS = false, class T, int... D>
  requires detail::is_elem_v<T>
auto max(const tile<T, D...> &t) {
  using R = detail::minmax_t<T>;
  return detail::reduce_values<AXIS, KEEP_DIMS, R>(t, detail::max_of<R>);
}

/// Minimum; a NaN loses to a number.
template <int AXIS = all_axes, bool KEEP_DIMS = false, class T, int... D>
  requires detail::is_elem_v<T>
auto min(const tile<T, D...> &t) {
  using R = detail::minmax_t<T>;
  return detail::reduce_values<AXIS, KEEP_DIMS, R>(t, detail::min_of<R>);
}

/// int32 index of the maximum along AXIS (the first one among ties).
template <int AXIS = all_axes, bool KEEP_DIMS = false, class T, int... D>
  requires detail::is_elem_v<T>
auto argmax(const tile<T, D...> &t) {
  return detail::arg_reduce<AXIS, KEEP_DIMS, true>(t);
}

/// int32 index of the minimum along AXIS (the first one among ties).
template <int AXIS = all_axes, bool KEEP_DIMS = false, class T, int... D>
  requires detail::is_elem_v<T>
auto argmin(const tile<T, D...> &t) {
  return detail::arg_reduce<AXIS, KEEP_DIMS, false>(t);
}

/// Bitwise xor of integers.
template <int AXIS = all_axes, bool KEEP_DIMS = false, class T, int... D>
  requires detail::is_elem_v<T>
auto xor_sum(const tile<T, D...> &t) {
  static_assert(detail::is_int_elem_v<T>, "tl::xor_sum needs integers");
  return detail::reduce_values<AXIS, KEEP_DIMS, T>(
      t, [](const T &a, const T &b) { return detail::op_xor<T>(a, b); });
}

/// Reduction with a user combine function (a TILEC_FUNC taking two scalars).
template <int AXIS = all_axes, bool KEEP_DIMS = false, class T, int... D, class F>
  requires detail::is_elem_v<T>
auto reduce(const tile<T, D...> &t, F combine) {
  return detail::reduce_values<AXIS, KEEP_DIMS, T>(
      t, [&combine](const T &a, const T &b) { return detail::convert<T>(combine(a, b)); });
}

} // namespace tl
