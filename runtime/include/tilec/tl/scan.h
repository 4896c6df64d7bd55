// tilec/tl/scan.h - inclusive scans along one axis: cumsum, cumprod, associative_scan.
//
// out[k] = x[0] op x[1] op ... op x[k], combined left to right in index order. With
// REVERSE = true (Triton's reverse=True) out[k] = x[n-1] op ... op x[k]: the running value
// from the higher indices is the left operand. The GPU scans as a tree, so floating-point
// results may differ by rounding; combine functions must be associative.
//
// Result types: cumsum as sum (int8/int16 -> int32, bool/uint8/uint16 -> uint32) and
// bfloat16 -> float; cumprod bfloat16 -> float; fp8 -> float for both; associative_scan
// keeps the tile's type.
#pragma once

#include <tilec/tl/reduction.h>

namespace tl {
namespace detail {

template <int AXIS, bool REVERSE, class R, class T, int... D, class Op>
tile<R, D...> scan_with(const tile<T, D...> &t, const Op &op) {
  using S = dims<D...>;
  constexpr int a = norm_axis<AXIS, S::rank>();
  constexpr int n = S::value[a], inner = dims_product<S>(a + 1, S::rank);
  constexpr int outer = dims_product<S>(0, a);
  tile<R, D...> r;
  for (int o = 0; o < outer; ++o)
    for (int i = 0; i < inner; ++i) {
      const int base = o * n * inner + i;
      for (int j = 0; j < n; ++j) {
        const int k = REVERSE ? n - 1 - j : j;
        const int at = base + k * inner;
        const R x = convert<R>(t.elems[at]);
        r.elems[at] = j == 0 ? x : R(op(r.elems[at + (REVERSE ? inner : -inner)], x));
      }
    }
  return r;
}

/// bfloat16 scans in float (Triton), and fp8 as everywhere.
template <class T>
using bf16_to_float_t = std::conditional_t<std::is_same_v<T, bfloat16>, float, arith_t<T>>;

} // namespace detail

/// Running sum along AXIS.
template <int AXIS = 0, bool REVERSE = false, class T, int... D>
  requires detail::is_elem_v<T>
auto cumsum(const tile<T, D...> &t) {
  using R = detail::sum_t<detail::bf16_to_float_t<T>>;
  return detail::scan_with<AXIS, REVERSE, R>(
      t, [](const R &a, const R &b) { return detail::op_add<R>(a, b); });
}

/// Running product along AXIS.
template <int AXIS = 0, bool REVERSE = false, class T, int... D>
  requires detail::is_elem_v<T>
auto cumprod(const tile<T, D...> &t) {
  using R = detail::bf16_to_float_t<T>;
  return detail::scan_with<AXIS, REVERSE, R>(
      t, [](const R &a, const R &b) { return detail::op_mul<R>(a, b); });
}

/// Inclusive scan with a user combine function (a TILEC_FUNC taking two scalars).
template <int AXIS, bool REVERSE = false, class T, int... D, class F>
  requires detail::is_elem_v<T>
tile<T, D...> associative_scan(const tile<T, D...> &t, F combine) {
  return detail::scan_with<AXIS, REVERSE, T>(
      t, [&combine](const T &a, const T &b) { return detail::convert<T>(combine(a, b)); });
}

} // namespace tl
