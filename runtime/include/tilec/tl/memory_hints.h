// tilec/tl/memory_hints.h - cache hints of loads and stores, as trailing arguments.
//
//   tl::load(x + offs, mask, 0.0f, tl::evict_first)    Triton's eviction_policy="evict_first"
//   tl::load(x + offs, mask, tl::cache::cg)            cache_modifier=".cg"
//   tl::load(flag, tl::is_volatile)                    volatile=True
//   tl::store(y + offs, v, mask, tl::cache::cs, tl::evict_last)
//
// Eviction policies: tl::evict_first for data used once (streamed through L1 and L2),
// tl::evict_last for data that many programs read again (kept in L2), tl::evict_normal.
// Cache modifiers (PTX's cache operators): loads take tl::cache::ca (cache in L1 and L2),
// cg (L2 only) and cv (no cached copy: fetch again); stores take tl::cache::wb (write back),
// cg (L2 only), cs (streamed) and wt (write through). tl::is_volatile makes a load read
// memory every time it runs (ld.volatile), with no other hint.
//
// Values never depend on hints: the interpreter accepts and ignores them. The translator
// checks which ones an access takes and that they combine (docs/kernels.md).
#pragma once

#include <tilec/tl/memory.h>

namespace tl {

/// How long the lines a load or store touches should stay in the caches.
enum class eviction { normal, first, last };
inline constexpr eviction evict_normal = eviction::normal;
inline constexpr eviction evict_first = eviction::first;
inline constexpr eviction evict_last = eviction::last;

/// Triton's cache_modifier, by PTX's names (".cg" is tl::cache::cg).
enum class cache { ca, cg, cv, wb, cs, wt };

/// Triton's volatile=True of a load.
struct volatile_load {
  explicit constexpr volatile_load() = default;
};
inline constexpr volatile_load is_volatile{};

/// A trailing hint of a load: an eviction policy, a cache modifier or tl::is_volatile.
struct load_hint {
  constexpr load_hint() = default;
  constexpr load_hint(eviction) {}
  constexpr load_hint(cache) {}
  constexpr load_hint(volatile_load) {}
};

/// A trailing hint of a store: an eviction policy or a cache modifier (no volatile stores, as
/// in Triton).
struct store_hint {
  constexpr store_hint() = default;
  constexpr store_hint(eviction) {}
  constexpr store_hint(cache) {}
};

// The loads and stores of memory.h with one or two hints, which do not change their values.

template <class T, int D0, int... Ds>
tile<std::remove_cv_t<T>, D0, Ds...>
load(const tile<T *, D0, Ds...> &ptrs, load_hint, load_hint = {},
     std::source_location loc = std::source_location::current()) {
  return load(ptrs, loc);
}
template <class T, int D0, int... Ds, class M>
  requires detail::is_mask_v<M>
tile<std::remove_cv_t<T>, D0, Ds...>
load(const tile<T *, D0, Ds...> &ptrs, const M &mask, load_hint, load_hint = {},
     std::source_location loc = std::source_location::current()) {
  return load(ptrs, mask, std::remove_cv_t<T>(0), loc);
}
template <class T, int D0, int... Ds, class M, class O>
  requires detail::is_mask_v<M> && detail::is_operand_v<O>
tile<std::remove_cv_t<T>, D0, Ds...>
load(const tile<T *, D0, Ds...> &ptrs, const M &mask, const O &other, load_hint, load_hint = {},
     std::source_location loc = std::source_location::current()) {
  return load(ptrs, mask, other, loc);
}

template <class T>
  requires detail::is_elem_v<std::remove_cv_t<T>>
std::remove_cv_t<T> load(T *p, load_hint, load_hint = {},
                         std::source_location loc = std::source_location::current()) {
  return load(p, loc);
}
template <class T>
  requires detail::is_elem_v<std::remove_cv_t<T>>
std::remove_cv_t<T> load(T *p, bool mask, load_hint, load_hint = {},
                         std::source_location loc = std::source_location::current()) {
  return load(p, mask, std::remove_cv_t<T>(0), loc);
}
template <class T, class O>
  requires detail::is_elem_v<std::remove_cv_t<T>> && detail::is_operand_v<O>
std::remove_cv_t<T> load(T *p, bool mask, const O &other, load_hint, load_hint = {},
                         std::source_location loc = std::source_location::current()) {
  return load(p, mask, other, loc);
}

template <class T, int D0, int... Ds, class V>
  requires detail::is_operand_v<V>
void store(const tile<T *, D0, Ds...> &ptrs, const V &value, store_hint, store_hint = {},
           std::source_location loc = std::source_location::current()) {
  store(ptrs, value, true, loc);
}
template <class T, int D0, int... Ds, class V, class M>
  requires detail::is_operand_v<V> && detail::is_mask_v<M>
void store(const tile<T *, D0, Ds...> &ptrs, const V &value, const M &mask, store_hint,
           store_hint = {}, std::source_location loc = std::source_location::current()) {
  store(ptrs, value, mask, loc);
}

template <class T, class V>
  requires detail::is_operand_v<V>
void store(T *p, const V &value, store_hint, store_hint = {},
           std::source_location loc = std::source_location::current()) {
  store(p, value, loc);
}
template <class T, class V>
  requires detail::is_operand_v<V>
void store(T *p, const V &value, bool mask, store_hint, store_hint = {},
           std::source_location loc = std::source_location::current()) {
  store(p, value, mask, loc);
}

} // namespace tl
