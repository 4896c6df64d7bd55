// global_access.cuh: loads and stores of one run of W consecutive elements of a thread.
//
// W is the access width layout assignment proved safe (contiguous, aligned to W elements, at
// most 16 bytes). With a mask, the vector access is used when every lane of the run is on;
// otherwise each lane is accessed alone, and masked-off lanes are never dereferenced. When the
// analysis proved the mask constant over each run (MASK_UNIFORM), only its first lane is read.
//
// An eviction hint (tl::evict_first / tl::evict_last) turns whole runs of 4, 8 or 16 bytes
// into PTX accesses with a cache policy: evict-first is `.cs` (streamed: lines go first in L1
// and L2), evict-last keeps the lines in L2 through an L2 cache-policy operand. Narrower runs
// and the lane-by-lane accesses at a mask's edge ignore it.
#pragma once

#include <tilec/device/common/compat.cuh>

namespace tilec {

/// W elements moved as one access of W * sizeof(T) bytes.
template <class T, int W> struct alignas(sizeof(T) * W) Vec {
  T v[W];
};

/// The cache policy a load or store asks for.
enum class Evict { normal, first, last };

namespace detail {

/// An L2 policy that keeps lines (evict_last) for `.L2::cache_hint` accesses.
__device__ inline unsigned long long keep_in_l2_policy() {
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

/// N 32-bit words at `src` (aligned to 4 * N bytes) read with policy E.
template <Evict E, int N> __device__ inline void load_words(unsigned *w, const void *src) {
  static_assert(N == 1 || N == 2 || N == 4, "an access moves 4, 8 or 16 bytes");
  if constexpr (E == Evict::first) {
    if constexpr (N == 4)
      asm volatile("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                   : "l"(src));
    else if constexpr (N == 2)
      asm volatile("ld.global.cs.v2.u32 {%0, %1}, [%2];" : "=r"(w[0]), "=r"(w[1]) : "l"(src));
    else
      asm volatile("ld.global.cs.u32 %0, [%1];" : "=r"(w[0]) : "l"(src));
  } else {
    const unsigned long long policy = keep_in_l2_policy();
    if constexpr (N == 4)
      asm volatile("ld.global.L1::evict_last.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                   : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                   : "l"(src), "l"(policy));
    else if constexpr (N == 2)
      asm volatile("ld.global.L1::evict_last.L2::cache_hint.v2.u32 {%0, %1}, [%2], %3;"
                   : "=r"(w[0]), "=r"(w[1])
                   : "l"(src), "l"(policy));
    else
      asm volatile("ld.global.L1::evict_last.L2::cache_hint.u32 %0, [%1], %2;"
                   : "=r"(w[0])
                   : "l"(src), "l"(policy));
  }
}

/// N 32-bit words written to `dst` (aligned to 4 * N bytes) with policy E.
template <Evict E, int N> __device__ inline void store_words(void *dst, const unsigned *w) {
  static_assert(N == 1 || N == 2 || N == 4, "an access moves 4, 8 or 16 bytes");
  if constexpr (E == Evict::first) {
    if constexpr (N == 4)
      asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(dst), "r"(w[0]),
                   "r"(w[1]), "r"(w[2]), "r"(w[3])
                   : "memory");
    else if constexpr (N == 2)
      asm volatile("st.global.cs.v2.u32 [%0], {%1, %2};" ::"l"(dst), "r"(w[0]), "r"(w[1])
                   : "memory");
    else
      asm volatile("st.global.cs.u32 [%0], %1;" ::"l"(dst), "r"(w[0]) : "memory");
  } else {
    const unsigned long long policy = keep_in_l2_policy();
    if constexpr (N == 4)
      asm volatile("st.global.L1::evict_last.L2::cache_hint.v4.u32 [%0], {%1, %2, %3, %4}, %5;" ::
                       "l"(dst),
                   "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "l"(policy)
                   : "memory");
    else if constexpr (N == 2)
      asm volatile("st.global.L1::evict_last.L2::cache_hint.v2.u32 [%0], {%1, %2}, %3;" ::"l"(dst),
                   "r"(w[0]), "r"(w[1]), "l"(policy)
                   : "memory");
    else
      asm volatile("st.global.L1::evict_last.L2::cache_hint.u32 [%0], %1, %2;" ::"l"(dst),
                   "r"(w[0]), "l"(policy)
                   : "memory");
  }
}

/// Whether a run of W elements of T goes through load_words / store_words under policy E.
template <Evict E, int W, class T> inline constexpr bool hinted_run =
    E != Evict::normal && (W * sizeof(T)) % 4 == 0;

} // namespace detail

template <int W, Evict E = Evict::normal, class T>
__device__ inline void load_run(T *dst, const T *src) {
  static_assert(W * sizeof(T) <= 16, "an access moves at most 16 bytes");
  if constexpr (detail::hinted_run<E, W, T>) {
    Vec<unsigned, W * sizeof(T) / 4> bits;
    detail::load_words<E, W * sizeof(T) / 4>(bits.v, src);
    const Vec<T, W> &v = *reinterpret_cast<const Vec<T, W> *>(&bits);
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = v.v[k];
  } else if constexpr (W == 1) {
    dst[0] = *src;
  } else {
    const Vec<T, W> v = *reinterpret_cast<const Vec<T, W> *>(src);
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = v.v[k];
  }
}

template <int W, Evict E = Evict::normal, class T>
__device__ inline void store_run(T *dst, const T *src) {
  static_assert(W * sizeof(T) <= 16, "an access moves at most 16 bytes");
  if constexpr (W == 1 && !detail::hinted_run<E, W, T>) {
    *dst = src[0];
  } else {
    Vec<T, W> v;
#pragma unroll
    for (int k = 0; k < W; ++k)
      v.v[k] = src[k];
    if constexpr (detail::hinted_run<E, W, T>)
      detail::store_words<E, W * sizeof(T) / 4>(
          dst, reinterpret_cast<const Vec<unsigned, W * sizeof(T) / 4> *>(&v)->v);
    else
      *reinterpret_cast<Vec<T, W> *>(dst) = v;
  }
}

template <int W, bool MASK_UNIFORM> __device__ inline bool all_on(const bool *mask) {
  bool all = mask[0];
  if constexpr (!MASK_UNIFORM) {
#pragma unroll
    for (int k = 1; k < W; ++k)
      all = all && mask[k];
  }
  return all;
}

// ---- loads ----

/// Unmasked.
template <int W, Evict E = Evict::normal, class T>
__device__ inline void load_vec(T *dst, const T *src) {
  load_run<W, E>(dst, src);
}

/// Masked, masked-off lanes take `other`.
template <int W, bool MASK_UNIFORM, Evict E = Evict::normal, class T>
__device__ inline void load_vec(T *dst, const T *src, const bool *mask, T other) {
  if (all_on<W, MASK_UNIFORM>(mask)) {
    load_run<W, E>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = mask[k] ? src[k] : other;
  }
}

/// Masked, `other` given per element.
template <int W, bool MASK_UNIFORM, Evict E = Evict::normal, class T>
__device__ inline void load_vec(T *dst, const T *src, const bool *mask, const T *other) {
  if (all_on<W, MASK_UNIFORM>(mask)) {
    load_run<W, E>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = mask[k] ? src[k] : other[k];
  }
}

/// One mask for the whole tile.
template <int W, Evict E = Evict::normal, class T>
__device__ inline void load_vec(T *dst, const T *src, bool mask, T other) {
  if (mask) {
    load_run<W, E>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = other;
  }
}

// ---- stores (`owner` is false on threads that hold copies) ----

template <int W, Evict E = Evict::normal, class T>
__device__ inline void store_vec(T *dst, const T *src, bool owner) {
  if (owner)
    store_run<W, E>(dst, src);
}

template <int W, bool MASK_UNIFORM, Evict E = Evict::normal, class T>
__device__ inline void store_vec(T *dst, const T *src, const bool *mask, bool owner) {
  if (!owner)
    return;
  if (all_on<W, MASK_UNIFORM>(mask)) {
    store_run<W, E>(dst, src);
  } else if (!MASK_UNIFORM) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (mask[k])
        dst[k] = src[k];
  }
}

template <int W, Evict E = Evict::normal, class T>
__device__ inline void store_vec(T *dst, const T *src, bool mask, bool owner) {
  if (owner && mask)
    store_run<W, E>(dst, src);
}

} // namespace tilec
