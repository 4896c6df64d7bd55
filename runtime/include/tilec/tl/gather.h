// tilec/tl/gather.h - elements picked along one axis by their position: flip and gather.
//
//   tl::flip(t)                 the last axis reversed (Triton's tl.flip(x), dim=None)
//   tl::flip<AXIS>(t)           axis AXIS reversed (tl.flip(x, dim=AXIS))
//   tl::gather<AXIS>(src, idx)  out[..., k, ...] = src[..., idx[..., k, ...], ...] along AXIS
//                               (tl.gather(src, idx, axis=AXIS)); out has idx's shape
//
// Axes count from 0; a negative axis counts from the end, as in Triton. Both move elements
// and never change them, so they take tiles of any element type (pointers too).
#pragma once

#include <tilec/tl/bounds.h>
#include <tilec/tl/shape.h>

#include <source_location>
#include <string>

namespace tl {

/// t with axis AXIS (the last by default) reversed: element k along it becomes n - 1 - k.
template <int AXIS = -1, class T, int D0, int... Ds>
tile<T, D0, Ds...> flip(const tile<T, D0, Ds...> &t) {
  using S = detail::dims<D0, Ds...>;
  constexpr int a = detail::norm_axis<AXIS, S::rank>();
  constexpr int n = S::value[a], inner = detail::dims_product<S>(a + 1, S::rank);
  tile<T, D0, Ds...> r;
  for (int f = 0; f < S::size; ++f) {
    const int k = f / inner % n;
    r.elems[f + (n - 1 - 2 * k) * inner] = t.elems[f];
  }
  return r;
}

namespace detail {

/// True when shapes S and I agree on every axis but A.
template <class S, class I> constexpr bool same_but_axis(int a) {
  for (int i = 0; i < S::rank; ++i)
    if (i != a && S::value[i] != I::value[i])
      return false;
  return true;
}

[[noreturn]] inline void report_gather_index(long long k, int n, int axis, const std::string &lane,
                                             const std::source_location &loc) {
  const auto &pid = current_program().id;
  std::string where = loc.line() ? std::string(loc.file_name()) + ":" + std::to_string(loc.line())
                                 : std::string("the kernel");
  throw out_of_bounds_error(where + ": tl::gather index out of range: program (" +
                            std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
                            std::to_string(pid[2]) + "), index element " + lane + " is " +
                            std::to_string(k) + ", valid 0.." + std::to_string(n - 1) +
                            " along axis " + std::to_string(axis) +
                            "; clamp it (tl::minimum / tl::maximum) or select a valid one "
                            "(tl::where)");
}

} // namespace detail

/// Triton's gather: the result has idx's shape and src's element type; along AXIS element k
/// is src's element idx[..., k, ...], elsewhere the coordinates are the same (src and idx
/// agree on every other axis). An index outside [0, n) is undefined in Triton; here it throws
/// tl::out_of_bounds_error naming the program and the index element (the GPU reads the
/// element at the index modulo n instead, never outside src).
template <int AXIS, class T, int... D, class I, int... E>
tile<T, E...> gather(const tile<T, D...> &src, const tile<I, E...> &idx,
                     std::source_location loc = std::source_location::current()) {
  using S = detail::dims<D...>;
  using X = detail::dims<E...>;
  static_assert(S::rank == X::rank, "tl::gather: src and index must have the same rank");
  static_assert(detail::is_int_elem_v<I>, "tl::gather: the index must be an integer tile");
  constexpr int a = detail::norm_axis<AXIS, S::rank>();
  static_assert(detail::same_but_axis<S, X>(a),
                "tl::gather: src and index must have the same size on every axis but AXIS");
  constexpr int n = S::value[a], m = X::value[a], inner = detail::dims_product<S>(a + 1, S::rank);
  tile<T, E...> r;
  for (int f = 0; f < X::size; ++f) {
    const long long k = static_cast<long long>(idx.elems[f]);
    if (k < 0 || k >= n)
      detail::report_gather_index(k, n, a, detail::lane_text<X>(f), loc);
    r.elems[f] = src.elems[(f / (m * inner) * n + int(k)) * inner + f % inner];
  }
  return r;
}

} // namespace tl
