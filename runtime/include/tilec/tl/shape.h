// tilec/tl/shape.h - shape operations: expand_dims, broadcast_to, reshape, permute, trans,
// join, split. They move elements and never change them; pointer tiles work too.
//
// Axes count from 0 (the outermost); a negative axis counts from the end, as in Triton.
#pragma once

#include <tilec/tl/tile.h>

namespace tl {
namespace detail {

/// AXIS in [-RANK, RANK) as a non-negative axis.
template <int AXIS, int RANK> constexpr int norm_axis() {
  static_assert(AXIS >= -RANK && AXIS < RANK, "tl: axis out of range for the tile's rank");
  return AXIS < 0 ? AXIS + RANK : AXIS;
}

/// Product of the dimensions [from, to) of shape S.
template <class S> constexpr int dims_product(int from, int to) {
  int p = 1;
  for (int i = from; i < to; ++i)
    p *= S::value[i];
  return p;
}

/// The shape whose dimensions are Arr; dims<> when Arr is empty.
template <auto Arr> struct dims_of_array {
  using type = typename dims_from_array<Arr, std::make_index_sequence<Arr.size()>>::type;
};
template <std::array<int, 0> Arr> struct dims_of_array<Arr> {
  using type = dims<>;
};
template <auto Arr> using dims_of_t = typename dims_of_array<Arr>::type;

/// Shape S with axis A removed (KEEP: set to 1).
template <class S, int A, bool KEEP> struct drop_axis {
  static constexpr std::array<int, KEEP ? S::rank : S::rank - 1> arr = [] {
    std::array<int, KEEP ? S::rank : S::rank - 1> r{};
    for (int i = 0, j = 0; i < S::rank; ++i)
      if (i != A)
        r[j++] = S::value[i];
      else if (KEEP)
        r[j++] = 1;
    return r;
  }();
  using type = dims_of_t<arr>;
};

/// Shape S with a new axis of size N inserted before axis A.
template <class S, int A, int N> struct insert_axis {
  static constexpr std::array<int, S::rank + 1> arr = [] {
    std::array<int, S::rank + 1> r{};
    for (int i = 0, j = 0; i <= S::rank; ++i) {
      if (i == A)
        r[j++] = N;
      if (i < S::rank)
        r[j++] = S::value[i];
    }
    return r;
  }();
  using type = dims_of_t<arr>;
};

/// A tile with the elements of t (row-major) and shape S (the same element count).
template <class S, class T, int... D> tile_of_t<T, S> with_shape(const tile<T, D...> &t) {
  static_assert(S::size == tile<T, D...>::numel, "tl::reshape: the element count must not change");
  tile_of_t<T, S> r;
  for (int i = 0; i < S::size; ++i)
    r.elems[i] = t.elems[i];
  return r;
}

} // namespace detail

/// Inserts an axis of size 1 before AXIS (AXIS == rank appends; -1 also appends):
/// Triton's t[:, None] is expand_dims<1>(t), t[None, :] is expand_dims<0>(t).
template <int AXIS, class T, int... D> auto expand_dims(const tile<T, D...> &t) {
  using S = detail::dims<D...>;
  constexpr int a = detail::norm_axis<AXIS, S::rank + 1>();
  return detail::with_shape<typename detail::insert_axis<S, a, 1>::type>(t);
}

/// The same elements seen with shape D... (row-major order, same element count).
template <int... D, class T, int... E> tile<T, D...> reshape(const tile<T, E...> &t) {
  return detail::with_shape<detail::dims<D...>>(t);
}

/// t (a tile or a scalar) broadcast to shape D... by NumPy rules (axes of size 1 stretch).
template <int... D, class X> tile<detail::elem_t<X>, D...> broadcast_to(const X &x) {
  using Out = detail::dims<D...>;
  static_assert(detail::shapes_compatible_v<X, tile<int, D...>> &&
                    std::is_same_v<detail::result_shape_t<X, tile<int, D...>>, Out>,
                "tl::broadcast_to: the tile does not broadcast to this shape");
  tile<detail::elem_t<X>, D...> r;
  for (int i = 0; i < Out::size; ++i)
    r.elems[i] = detail::element_at<Out>(x, i);
  return r;
}

/// Axes reordered: result axis i is axis P[i] of t (Triton's tl.permute).
template <int... P, class T, int D0, int... Ds> auto permute(const tile<T, D0, Ds...> &t) {
  using S = detail::dims<D0, Ds...>;
  static_assert(sizeof...(P) == S::rank, "tl::permute needs one axis per dimension");
  constexpr std::array<int, sizeof...(P)> perm{P...};
  static_assert(
      [&] {
        int seen = 0;
        for (int p : perm)
          seen |= (p >= 0 && p < S::rank) ? 1 << p : 1 << 8;
        return seen == (1 << S::rank) - 1;
      }(),
      "tl::permute: the axes must be a permutation of 0 .. rank-1");
  using Out = detail::dims<S::value[P]...>;
  detail::tile_of_t<T, Out> r;
  for (int f = 0; f < S::size; ++f) {
    int in_idx[3] = {0, 0, 0};
    for (int k = S::rank - 1, g = f; k >= 0; g /= S::value[k], --k)
      in_idx[k] = g % S::value[k];
    int o = 0;
    for (int i = 0; i < S::rank; ++i)
      o = o * Out::value[i] + in_idx[perm[i]];
    r.elems[o] = t.elems[f];
  }
  return r;
}

/// Transpose. Without axes it swaps the two axes of a rank-2 tile (Triton's default (1, 0));
/// a rank-3 tile needs its axes spelled out: trans<2, 1, 0>(t) (the same as permute).
template <int... P, class T, int D0, int... Ds> auto trans(const tile<T, D0, Ds...> &t) {
  if constexpr (sizeof...(P) == 0) {
    static_assert(sizeof...(Ds) == 1, "tl::trans without axes needs a rank-2 tile; "
                                      "write tl::trans<...>(t) or tl::permute<...>(t)");
    return permute<1, 0>(t);
  } else {
    return permute<P...>(t);
  }
}

/// A new last axis of size 2: join(a, b)[..., 0] is a, [..., 1] is b. a and b (tiles or
/// scalars of the same element type) broadcast together first.
template <class A, class B>
  requires(detail::is_tile_v<A> || detail::is_tile_v<B> ||
           (detail::is_elem_v<detail::elem_t<A>> && detail::is_elem_v<detail::elem_t<B>>))
auto join(const A &a, const B &b) {
  static_assert(std::is_same_v<detail::elem_t<A>, detail::elem_t<B>>,
                "tl::join needs operands of the same element type (cast one first)");
  using S = detail::result_shape_t<A, B>;
  using Out = typename detail::insert_axis<S, S::rank, 2>::type;
  detail::tile_of_t<detail::elem_t<A>, Out> r;
  for (int i = 0; i < S::size; ++i) {
    r.elems[2 * i] = detail::element_at<S>(a, i);
    r.elems[2 * i + 1] = detail::element_at<S>(b, i);
  }
  return r;
}

/// Triton's interleave: a and b (tiles of one shape) alternate along the last axis, which
/// doubles: reshape(join(a, b)) with the last two axes merged.
template <class T, int D0, int... Ds> auto interleave(const tile<T, D0, Ds...> &a,
                                                      const tile<T, D0, Ds...> &b) {
  const auto j = join(a, b);
  if constexpr (sizeof...(Ds) == 0) {
    return reshape<2 * D0>(j);
  } else {
    static_assert(sizeof...(Ds) == 1, "tl::interleave takes rank-1 or rank-2 tiles");
    return reshape<D0, 2 * (Ds * ...)>(j);
  }
}

/// Triton's ravel: the elements in row-major order as a rank-1 tile.
template <class T, int D0, int... Ds> auto ravel(const tile<T, D0, Ds...> &t) {
  return reshape<(D0 * ... * Ds)>(t);
}

/// Triton's cat(a, b, can_reorder=True) of rank-1 tiles: every element of a and of b once, in
/// an order Triton leaves unspecified; here (and on the GPU) interleaved, a[0], b[0], a[1], ...
/// Use it where the order does not matter (a sum, a set of values to store at their own
/// offsets cat'ed the same way).
template <class T, int N> auto cat(const tile<T, N> &a, const tile<T, N> &b) {
  return interleave(a, b);
}

/// The inverse of join: a tile whose last axis has size 2 -> {t[..., 0], t[..., 1]}
/// (scalars when t has rank 1).
template <class T, int D0, int... Ds> auto split(const tile<T, D0, Ds...> &t) {
  using S = detail::dims<D0, Ds...>;
  static_assert(S::value[S::rank - 1] == 2, "tl::split needs a last axis of size 2");
  using Half = typename detail::drop_axis<S, S::rank - 1, false>::type;
  std::pair<detail::tile_of_t<T, Half>, detail::tile_of_t<T, Half>> r;
  if constexpr (S::rank == 1) {
    r.first = t.elems[0];
    r.second = t.elems[1];
  } else {
    for (int i = 0; i < Half::size; ++i) {
      r.first.elems[i] = t.elems[2 * i];
      r.second.elems[i] = t.elems[2 * i + 1];
    }
  }
  return r;
}

} // namespace tl
