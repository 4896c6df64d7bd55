// tilec/tl/tile.h - tl::tile<T, D0, Ds...>, a block of values with a compile-time shape.
//
// On the host a tile is a plain value holding its elements in row-major order; every
// operation loops over them. Shapes are type-level lists (`dims<...>`) so that the result
// shape of an operation, broadcasting included, is known at compile time.
#pragma once

#include <tilec/tl/traits.h>

#include <array>
#include <cstddef>
#include <utility>

namespace tl {

namespace detail {

/// A shape; dims<> is the shape of a scalar.
template <int... D> struct dims {
  static constexpr int rank = int(sizeof...(D));
  static constexpr int size = (1 * ... * D);
  static constexpr std::array<int, sizeof...(D)> value{D...};
};

constexpr bool is_pow2(int d) { return d > 0 && (d & (d - 1)) == 0; }

} // namespace detail

/// A tile of rank 1 to 3; every dimension is a power of two, as in Triton.
template <class T, int D0, int... Ds> struct tile {
  using element_type = T;
  using shape = detail::dims<D0, Ds...>;
  static constexpr int rank = shape::rank;
  static constexpr int numel = shape::size;
  static_assert(rank <= 3, "tl::tile has rank 1 to 3");
  static_assert((detail::is_pow2(D0) && ... && detail::is_pow2(Ds)),
                "tl::tile dimensions must be powers of two");

  /// Row-major elements. Kernels do not index tiles; this is for the host implementation.
  T elems[numel] = {};

  /// Element-wise conversion, the same as tl::cast<U>(*this). Inside a template where the
  /// tile's type depends on a template parameter, C++ needs `t.template to<U>()`; prefer
  /// tl::cast<U>(t) in kernels.
  template <class U> tile<U, D0, Ds...> to() const {
    tile<U, D0, Ds...> r;
    for (int i = 0; i < numel; ++i)
      r.elems[i] = detail::convert<U>(elems[i]);
    return r;
  }

  // Compound assignment keeps this tile's type and shape: the result of the binary
  // operator (found by ADL in elementwise.h / memory.h) is converted back to T.
  template <class X> tile &operator+=(const X &x) { return *this = (*this + x).template to<T>(); }
  template <class X> tile &operator-=(const X &x) { return *this = (*this - x).template to<T>(); }
  template <class X> tile &operator*=(const X &x) { return *this = (*this * x).template to<T>(); }
  template <class X> tile &operator/=(const X &x) { return *this = (*this / x).template to<T>(); }
  template <class X> tile &operator%=(const X &x) { return *this = (*this % x).template to<T>(); }
  template <class X> tile &operator&=(const X &x) { return *this = (*this & x).template to<T>(); }
  template <class X> tile &operator|=(const X &x) { return *this = (*this | x).template to<T>(); }
  template <class X> tile &operator^=(const X &x) { return *this = (*this ^ x).template to<T>(); }
  template <class X> tile &operator<<=(const X &x) { return *this = (*this << x).template to<T>(); }
  template <class X> tile &operator>>=(const X &x) { return *this = (*this >> x).template to<T>(); }
};

namespace detail {

template <class X> struct tile_traits {
  static constexpr bool is_tile = false;
  using element = X;
  using shape = dims<>;
};
template <class T, int D0, int... Ds> struct tile_traits<tile<T, D0, Ds...>> {
  static constexpr bool is_tile = true;
  using element = T;
  using shape = dims<D0, Ds...>;
};

template <class X> inline constexpr bool is_tile_v = tile_traits<std::remove_cvref_t<X>>::is_tile;
/// Element type of a tile, or the (canonical) type of a scalar.
template <class X>
using elem_t = canonical_t<typename tile_traits<std::remove_cvref_t<X>>::element>;
template <class X> using shape_t = typename tile_traits<std::remove_cvref_t<X>>::shape;

/// A number a tile operation accepts: a tile of numbers or a scalar number.
template <class X> inline constexpr bool is_operand_v = is_elem_v<elem_t<X>>;

/// tile<T, D...> for a shape, or T itself for the scalar shape dims<>.
template <class T, class S> struct tile_of_shape;
template <class T> struct tile_of_shape<T, dims<>> {
  using type = T;
};
template <class T, int D0, int... Ds> struct tile_of_shape<T, dims<D0, Ds...>> {
  using type = tile<T, D0, Ds...>;
};
template <class T, class S> using tile_of_t = typename tile_of_shape<T, S>::type;

// NumPy-style broadcasting of two shapes: align on the right, missing axes count as 1,
// and an axis of size 1 stretches to the other size.
template <std::size_t R, std::size_t A, std::size_t B>
constexpr std::array<int, R> broadcast_dims(std::array<int, A> a, std::array<int, B> b, bool &ok) {
  std::array<int, R> r{};
  ok = true;
  for (std::size_t i = 0; i < R; ++i) {
    int da = i + A >= R ? a[i + A - R] : 1;
    int db = i + B >= R ? b[i + B - R] : 1;
    if (da != db && da != 1 && db != 1)
      ok = false;
    r[i] = da == 1 ? db : da;
  }
  return r;
}

template <auto Arr, class Seq> struct dims_from_array;
template <auto Arr, std::size_t... I> struct dims_from_array<Arr, std::index_sequence<I...>> {
  using type = dims<Arr[I]...>;
};

template <class A, class B> struct broadcast2 {
  static constexpr std::size_t R = A::value.size() > B::value.size() ? A::value.size()
                                                                     : B::value.size();
  static constexpr bool check() {
    bool ok = true;
    broadcast_dims<R>(A::value, B::value, ok);
    return ok;
  }
  static constexpr bool ok = check();
  static constexpr std::array<int, R> arr = [] {
    bool ok2 = true;
    return broadcast_dims<R>(A::value, B::value, ok2);
  }();
  using type = typename dims_from_array<arr, std::make_index_sequence<R>>::type;
};

template <class... S> struct broadcast;
template <> struct broadcast<> {
  using type = dims<>;
  static constexpr bool ok = true;
};
template <class S, class... Rest> struct broadcast<S, Rest...> {
  using tail = broadcast<Rest...>;
  using b2 = broadcast2<S, typename tail::type>;
  using type = typename b2::type;
  static constexpr bool ok = tail::ok && b2::ok;
};

/// Shape of an operation on operands Xs (tiles and scalars).
template <class... Xs> using result_shape_t = typename broadcast<shape_t<Xs>...>::type;
template <class... Xs> inline constexpr bool shapes_compatible_v = broadcast<shape_t<Xs>...>::ok;

/// Flat index into an operand of shape In for flat index `f` of the result shape Out.
template <class Out, class In> inline int source_index(int f) {
  if constexpr (std::is_same_v<Out, In>)
    return f;
  else if constexpr (In::size == 1)
    return 0;
  else {
    int src = 0, stride = 1;
    for (int k = Out::rank - 1, j = In::rank - 1; j >= 0; --k, --j) {
      int coord = f % Out::value[k];
      f /= Out::value[k];
      if (In::value[j] != 1)
        src += coord * stride;
      stride *= In::value[j];
    }
    return src;
  }
}

/// The element of operand x that lands at flat index f of a result of shape Out.
template <class Out, class X> inline decltype(auto) element_at(const X &x, int f) {
  if constexpr (is_tile_v<X>)
    return x.elems[source_index<Out, shape_t<X>>(f)];
  else
    return (x);
}

/// Applies f element by element over operands broadcast together; the result holds R.
/// With only scalars it is a scalar R.
template <class R, class F, class... Xs> auto map(F f, const Xs &...xs) {
  static_assert(shapes_compatible_v<Xs...>,
                "tile shapes do not broadcast: sizes must match or be 1 (NumPy rules)");
  using S = result_shape_t<Xs...>;
  if constexpr (S::rank == 0) {
    return R(f(xs...));
  } else {
    tile_of_t<R, S> out;
    for (int i = 0; i < S::size; ++i)
      out.elems[i] = f(element_at<S>(xs, i)...);
    return out;
  }
}

/// Element i of a tile (tests and host helpers; kernels never index tiles).
template <class T, int D0, int... Ds> T at(const tile<T, D0, Ds...> &t, int i) {
  return t.elems[i];
}

} // namespace detail
} // namespace tl
