// tilec/tl/memory.h - tiles of pointers, load and store.
//
// `T* + tile<int>` is a tile<T*>: one address per element. load/store go through every
// lane whose mask is true; masked-off lanes are never dereferenced, and the addresses of
// masked-off lanes may lie outside any allocation (they are formed with integer arithmetic,
// so even forming them is defined behaviour on the host).
//
// Loads and stores also take trailing cache hints (eviction policy, cache modifier,
// volatile): tl/memory_hints.h.
//
// Each load, store and atomic takes a defaulted last parameter, its call site: a checked
// launch (tilec/checked_launch.h) names the kernel line that touched memory out of bounds.
// Kernels never pass it, and the translator does not see it (defaulted arguments).
#pragma once

#include <tilec/tl/bounds.h>
#include <tilec/tl/elementwise.h>

namespace tl {
namespace detail {

template <class X> struct is_ptr_tile : std::false_type {};
template <class T, int D0, int... Ds> struct is_ptr_tile<tile<T *, D0, Ds...>> : std::true_type {};
template <class X> inline constexpr bool is_ptr_tile_v = is_ptr_tile<std::remove_cvref_t<X>>::value;

/// An integer offset: an integer scalar or a tile of integers.
template <class X> inline constexpr bool is_offset_v = is_int_elem_v<elem_t<X>>;

/// p + off elements, without C++'s rule that the result stay inside the allocation.
template <class T, class I> T *ptr_add(T *p, const I &off) {
  static_assert(sizeof(T) > 0, "pointer arithmetic needs a complete element type");
  return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(p) +
                               uintptr_t(off) * uintptr_t(sizeof(T)));
}

/// A mask operand: bool scalar or tile (any number is tested against zero).
template <class M> inline constexpr bool is_mask_v = is_operand_v<M>;

/// Checks that an operand broadcasts to the pointer tile's shape without growing it.
template <class P, class X>
inline constexpr bool fits_shape_v =
    shapes_compatible_v<P, X> && std::is_same_v<result_shape_t<P, X>, shape_t<P>>;

} // namespace detail

// Pointer arithmetic (pointer or tile of pointers, with an integer scalar or tile).
template <class T, class O>
  requires(detail::is_tile_v<O> && detail::is_offset_v<O>)
auto operator+(T *p, const O &offs) {
  return detail::map<T *>([p](const auto &o) { return detail::ptr_add(p, o); }, offs);
}
template <class T, class O>
  requires(detail::is_tile_v<O> && detail::is_offset_v<O>)
auto operator+(const O &offs, T *p) {
  return p + offs;
}
template <class P, class O>
  requires(detail::is_ptr_tile_v<P> && detail::is_offset_v<O>)
auto operator+(const P &ptrs, const O &offs) {
  using E = typename P::element_type;
  return detail::map<E>([](E p, const auto &o) { return detail::ptr_add(p, o); }, ptrs, offs);
}
template <class O, class P>
  requires(detail::is_ptr_tile_v<P> && detail::is_offset_v<O>)
auto operator+(const O &offs, const P &ptrs) {
  return ptrs + offs;
}
template <class P, class O>
  requires(detail::is_ptr_tile_v<P> && detail::is_offset_v<O>)
auto operator-(const P &ptrs, const O &offs) {
  using E = typename P::element_type;
  return detail::map<E>(
      [](E p, const auto &o) { return detail::ptr_add(p, detail::op_sub<int64_t>(0, o)); }, ptrs,
      offs);
}
template <class T, class O>
  requires(detail::is_tile_v<O> && detail::is_offset_v<O>)
auto operator-(T *p, const O &offs) {
  return detail::map<T *>(
      [p](const auto &o) { return detail::ptr_add(p, detail::op_sub<int64_t>(0, o)); }, offs);
}

/// *p (a scalar load).
template <class T>
std::remove_cv_t<T> load(T *p, std::source_location loc = std::source_location::current()) {
  detail::check_access(p, sizeof(T), detail::access::load, loc);
  return *p;
}

/// mask ? *p : other.
template <class T, class O = std::remove_cv_t<T>>
  requires detail::is_elem_v<std::remove_cv_t<T>> && detail::is_operand_v<O>
std::remove_cv_t<T> load(T *p, bool mask, const O &other = O(0),
                         std::source_location loc = std::source_location::current()) {
  using E = std::remove_cv_t<T>;
  if (!mask)
    return detail::convert<E>(other);
  detail::check_access(p, sizeof(T), detail::access::load, loc);
  return *p;
}

/// Loads every lane of a tile of pointers whose mask is true; other lanes get `other`
/// (a scalar or a tile, 0 by default). mask and other broadcast to the pointers' shape.
template <class T, int D0, int... Ds, class M, class O = std::remove_cv_t<T>>
  requires detail::is_mask_v<M> && detail::is_operand_v<O>
tile<std::remove_cv_t<T>, D0, Ds...>
load(const tile<T *, D0, Ds...> &ptrs, const M &mask, const O &other = O(0),
     std::source_location loc = std::source_location::current()) {
  using P = tile<T *, D0, Ds...>;
  using S = typename P::shape;
  using E = std::remove_cv_t<T>;
  static_assert(detail::fits_shape_v<P, M>, "tl::load: the mask must broadcast to the pointers");
  static_assert(detail::fits_shape_v<P, O>, "tl::load: `other` must broadcast to the pointers");
  tile<E, D0, Ds...> out;
  for (int i = 0; i < P::numel; ++i) {
    if (!detail::convert<bool>(detail::element_at<S>(mask, i))) {
      out.elems[i] = detail::convert<E>(detail::element_at<S>(other, i));
      continue;
    }
    detail::check_access(ptrs.elems[i], sizeof(T), detail::access::load, loc,
                         [i] { return detail::lane_text<S>(i); });
    out.elems[i] = E(*ptrs.elems[i]);
  }
  return out;
}

/// Loads every lane of a tile of pointers.
template <class T, int D0, int... Ds>
tile<std::remove_cv_t<T>, D0, Ds...>
load(const tile<T *, D0, Ds...> &ptrs, std::source_location loc = std::source_location::current()) {
  return load(ptrs, true, std::remove_cv_t<T>(0), loc);
}

/// *p = value (converted to T).
template <class T, class V>
  requires detail::is_operand_v<V>
void store(T *p, const V &value, std::source_location loc = std::source_location::current()) {
  static_assert(!std::is_const_v<T>, "tl::store through a pointer to const");
  static_assert(!detail::is_tile_v<V>, "tl::store of a tile needs a tile of pointers");
  detail::check_access(p, sizeof(T), detail::access::store, loc);
  *p = detail::convert<T>(value);
}

/// if (mask) *p = value.
template <class T, class V>
  requires detail::is_operand_v<V>
void store(T *p, const V &value, bool mask,
           std::source_location loc = std::source_location::current()) {
  if (mask)
    store(p, value, loc);
}

/// Stores value (a tile or a scalar, converted to T) to every lane whose mask is true.
template <class T, int D0, int... Ds, class V, class M = bool>
  requires detail::is_operand_v<V> && detail::is_mask_v<M>
void store(const tile<T *, D0, Ds...> &ptrs, const V &value, const M &mask = true,
           std::source_location loc = std::source_location::current()) {
  using P = tile<T *, D0, Ds...>;
  using S = typename P::shape;
  static_assert(!std::is_const_v<T>, "tl::store through pointers to const");
  static_assert(detail::fits_shape_v<P, V>, "tl::store: the value must broadcast to the pointers");
  static_assert(detail::fits_shape_v<P, M>, "tl::store: the mask must broadcast to the pointers");
  for (int i = 0; i < P::numel; ++i)
    if (detail::convert<bool>(detail::element_at<S>(mask, i))) {
      detail::check_access(ptrs.elems[i], sizeof(T), detail::access::store, loc,
                           [i] { return detail::lane_text<S>(i); });
      *ptrs.elems[i] = detail::convert<T>(detail::element_at<S>(value, i));
    }
}

} // namespace tl
