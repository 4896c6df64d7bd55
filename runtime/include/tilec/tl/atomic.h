// tilec/tl/atomic.h - atomic read-modify-write through pointers and tiles of pointers:
// atomic_add, atomic_max, atomic_min, atomic_xchg, atomic_and, atomic_or, atomic_xor (with a
// mask) and atomic_cas.
//
// Each returns the values the memory held before (a tile shaped like the broadcast of
// pointers, value and mask, or a scalar); masked-off lanes are not touched and return 0.
// The value is converted to the pointee type first. Types: int32, uint32, int64, uint64,
// float; double also for add and xchg; half and bfloat16 for add; and/or/xor take the
// integers only. atomic_max/min of floats with a NaN or signed zeros
// are unspecified (the GPU compares integer bit patterns). atomic_cas compares bit
// patterns and has no mask (as Triton's).
//
// On the host program instances run one after another and lanes in row-major order, so a
// scalar pointer updated by a whole tile sees the lanes one by one; on the GPU the order
// between lanes and programs is unspecified.
#pragma once

#include <tilec/tl/memory.h>

namespace tl {

/// Memory ordering of an atomic (Triton's `sem=`): acq_rel when not given, as in Triton.
enum class sem { relaxed, acquire, release, acq_rel };
/// Which threads an atomic orders with (Triton's `scope=`): gpu when not given.
enum class scope { cta, gpu, sys };

namespace detail {

template <class P> struct pointee {
  using type = std::remove_pointer_t<elem_t<P>>;
};
template <class P> using pointee_t = typename pointee<P>::type;

template <class P>
inline constexpr bool is_atomic_ptrs_v =
    std::is_pointer_v<std::remove_cvref_t<P>> || is_ptr_tile_v<P>;

/// Which element types an atomic takes: the 32/64-bit integers and float (max, min, cas),
/// with double (xchg, cas), with double and the 16-bit floats (add), or the integers alone
/// (and, or, xor).
enum class atomic_types { words, with_double, for_add, integers };

template <atomic_types TYPES, class T> constexpr void check_atomic_type() {
  using C = canonical_t<T>;
  static_assert(!std::is_const_v<T>, "tl::atomic_* through pointers to const");
  constexpr bool integer = std::is_same_v<C, int32_t> || std::is_same_v<C, uint32_t> ||
                           std::is_same_v<C, int64_t> || std::is_same_v<C, uint64_t>;
  static_assert(integer || TYPES != atomic_types::integers,
                "tl::atomic_and/or/xor take 32/64-bit integers");
  static_assert(integer || TYPES == atomic_types::integers || std::is_same_v<C, float> ||
                    (TYPES != atomic_types::words && std::is_same_v<C, double>) ||
                    (TYPES == atomic_types::for_add && is_half_like_v<C>),
                "tl::atomic_*: unsupported element type (int32, uint32, int64, uint64, float; "
                "double for add and xchg; half and bfloat16 for add)");
}

/// map<R>(f, xs...) where f also receives the lane's flat index first (for bounds checks).
template <class R, class F, class... Xs> auto map_lanes(F f, const Xs &...xs) {
  static_assert(shapes_compatible_v<Xs...>,
                "tile shapes do not broadcast: sizes must match or be 1 (NumPy rules)");
  using S = result_shape_t<Xs...>;
  if constexpr (S::rank == 0) {
    return R(f(0, xs...));
  } else {
    tile_of_t<R, S> out;
    for (int i = 0; i < S::size; ++i)
      out.elems[i] = f(i, element_at<S>(xs, i)...);
    return out;
  }
}

/// Applies new = op(old, value) lane by lane where the mask is true; returns the old values.
template <atomic_types TYPES, class P, class V, class M, class Op>
auto atomic_rmw(const P &ptrs, const V &value, const M &mask, const Op &op,
                const std::source_location &loc) {
  using T = pointee_t<P>;
  using S = result_shape_t<P, V, M>;
  check_atomic_type<TYPES, T>();
  return map_lanes<T>(
      [&op, &loc](int lane, T *p, const auto &v, const auto &m) {
        if (!convert<bool>(m))
          return T(0);
        check_access(p, sizeof(T), access::atomic, loc, [lane] { return lane_text<S>(lane); });
        const T old = *p;
        *p = op(old, convert<T>(v));
        return old;
      },
      ptrs, value, mask);
}

} // namespace detail

/// *p += value; returns the old value.
template <class P, class V, class M = bool>
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<V> && detail::is_mask_v<M>
auto atomic_add(const P &ptrs, const V &value, const M &mask = true, sem = sem::acq_rel,
                scope = scope::gpu, std::source_location loc = std::source_location::current()) {
  using T = detail::pointee_t<P>;
  return detail::atomic_rmw<detail::atomic_types::for_add>(
      ptrs, value, mask, [](T a, T b) { return detail::convert<T>(detail::op_add<T>(a, b)); }, loc);
}

/// *p = max(*p, value); returns the old value.
template <class P, class V, class M = bool>
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<V> && detail::is_mask_v<M>
auto atomic_max(const P &ptrs, const V &value, const M &mask = true, sem = sem::acq_rel,
                scope = scope::gpu, std::source_location loc = std::source_location::current()) {
  using T = detail::pointee_t<P>;
  return detail::atomic_rmw<detail::atomic_types::words>(
      ptrs, value, mask, [](T a, T b) { return a < b ? b : a; }, loc);
}

/// *p = min(*p, value); returns the old value.
template <class P, class V, class M = bool>
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<V> && detail::is_mask_v<M>
auto atomic_min(const P &ptrs, const V &value, const M &mask = true, sem = sem::acq_rel,
                scope = scope::gpu, std::source_location loc = std::source_location::current()) {
  using T = detail::pointee_t<P>;
  return detail::atomic_rmw<detail::atomic_types::words>(
      ptrs, value, mask, [](T a, T b) { return b < a ? b : a; }, loc);
}

/// *p = value; returns the old value.
template <class P, class V, class M = bool>
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<V> && detail::is_mask_v<M>
auto atomic_xchg(const P &ptrs, const V &value, const M &mask = true, sem = sem::acq_rel,
                 scope = scope::gpu, std::source_location loc = std::source_location::current()) {
  using T = detail::pointee_t<P>;
  return detail::atomic_rmw<detail::atomic_types::with_double>(
      ptrs, value, mask, [](T, T b) { return b; }, loc);
}

/// *p &= value; returns the old value (integers).
template <class P, class V, class M = bool>
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<V> && detail::is_mask_v<M>
auto atomic_and(const P &ptrs, const V &value, const M &mask = true, sem = sem::acq_rel,
                scope = scope::gpu, std::source_location loc = std::source_location::current()) {
  using T = detail::pointee_t<P>;
  return detail::atomic_rmw<detail::atomic_types::integers>(
      ptrs, value, mask, [](T a, T b) { return T(a & b); }, loc);
}

/// *p |= value; returns the old value (integers).
template <class P, class V, class M = bool>
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<V> && detail::is_mask_v<M>
auto atomic_or(const P &ptrs, const V &value, const M &mask = true, sem = sem::acq_rel,
               scope = scope::gpu, std::source_location loc = std::source_location::current()) {
  using T = detail::pointee_t<P>;
  return detail::atomic_rmw<detail::atomic_types::integers>(
      ptrs, value, mask, [](T a, T b) { return T(a | b); }, loc);
}

/// *p ^= value; returns the old value (integers).
template <class P, class V, class M = bool>
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<V> && detail::is_mask_v<M>
auto atomic_xor(const P &ptrs, const V &value, const M &mask = true, sem = sem::acq_rel,
                scope = scope::gpu, std::source_location loc = std::source_location::current()) {
  using T = detail::pointee_t<P>;
  return detail::atomic_rmw<detail::atomic_types::integers>(
      ptrs, value, mask, [](T a, T b) { return T(a ^ b); }, loc);
}

/// if (*p == cmp) *p = value (bit patterns compared); returns the old value.
template <class P, class C, class V>
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<C> && detail::is_operand_v<V>
auto atomic_cas(const P &ptrs, const C &cmp, const V &value, sem = sem::acq_rel, scope = scope::gpu,
                std::source_location loc = std::source_location::current()) {
  using T = detail::pointee_t<P>;
  using S = detail::result_shape_t<P, C, V>;
  detail::check_atomic_type<detail::atomic_types::with_double, T>();
  return detail::map_lanes<T>(
      [&loc](int lane, T *p, const auto &c, const auto &v) {
        detail::check_access(p, sizeof(T), detail::access::atomic, loc,
                             [lane] { return detail::lane_text<S>(lane); });
        const T old = *p, expected = detail::convert<T>(c);
        if (std::memcmp(&old, &expected, sizeof(T)) == 0)
          *p = detail::convert<T>(v);
        return old;
      },
      ptrs, cmp, value);
}

/// The atomics above with an ordering and no mask: `tl::atomic_add(p, v, tl::sem::relaxed)`.
/// The interpreter runs lanes one after another, so every ordering gives the same values.
#define TILEC_ATOMIC_ORDERED_WITHOUT_MASK(NAME)                                                    \
  template <class P, class V>                                                                      \
  requires detail::is_atomic_ptrs_v<P> && detail::is_operand_v<V>                                  \
  auto NAME(const P &ptrs, const V &value, sem s, scope sc = scope::gpu,                           \
            std::source_location loc = std::source_location::current()) {                          \
    return NAME(ptrs, value, true, s, sc, loc);                                                    \
  }
TILEC_ATOMIC_ORDERED_WITHOUT_MASK(atomic_add)
TILEC_ATOMIC_ORDERED_WITHOUT_MASK(atomic_max)
TILEC_ATOMIC_ORDERED_WITHOUT_MASK(atomic_min)
TILEC_ATOMIC_ORDERED_WITHOUT_MASK(atomic_xchg)
TILEC_ATOMIC_ORDERED_WITHOUT_MASK(atomic_and)
TILEC_ATOMIC_ORDERED_WITHOUT_MASK(atomic_or)
TILEC_ATOMIC_ORDERED_WITHOUT_MASK(atomic_xor)
#undef TILEC_ATOMIC_ORDERED_WITHOUT_MASK

} // namespace tl
