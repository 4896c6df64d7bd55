// global_access.cuh: loads and stores of one run of W consecutive elements of a thread.
//
// W is the access width layout assignment proved safe (contiguous, aligned to W elements, at
// most 16 bytes). With a mask, the vector access is used when every lane of the run is on;
// otherwise each lane is accessed alone, and masked-off lanes are never dereferenced. When the
// analysis proved the mask constant over each run (MASK_UNIFORM), only its first lane is read.
//
// An eviction policy (E) or cache operator (C) turns every access, whole runs and the lanes
// at a mask's edge alike, into one PTX instruction with those qualifiers (cache_ops.cuh).
// A whole run's store is always written as one PTX instruction: NVVM may split the C++
// store of a vector into scalar stores (store_bytes_plain in cache_ops.cuh).
#pragma once

#include <tilec/device/common/cache_ops.cuh>
#include <tilec/device/common/compat.cuh>

namespace tilec {

/// W elements moved as one access of W * sizeof(T) bytes.
template <class T, int W> struct alignas(sizeof(T) * W) Vec {
  using value_type = T;
  T v[W];
};

namespace detail {

/// Whether an access under policy (E, C) goes through load_bytes / store_bytes.
template <Evict E, Cache C> inline constexpr bool hinted = E != Evict::normal || C != Cache::normal;

/// The bits of `x` (1 or 2 bytes) repeated over a 32-bit word.
template <class T> __device__ inline uint32_t splat_word(T x) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2, "elements narrower than a word");
  uint32_t bits = 0;
  memcpy(&bits, &x, sizeof(T)); // a device builtin under NVRTC and nvcc alike
  return sizeof(T) == 1 ? bits * 0x01010101u : bits * 0x00010001u;
}

} // namespace detail

/// W elements read from `src` (aligned to W elements) with policy (E, C).
template <int W, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void load_run(T *dst, const T *src) {
  static_assert(W * sizeof(T) <= 16, "an access moves at most 16 bytes");
  if constexpr (W == 1 && !detail::hinted<E, C>) {
    dst[0] = *src;
  } else {
    Vec<T, W> v;
    if constexpr (detail::hinted<E, C>)
      detail::load_bytes<E, C, int(W * sizeof(T))>(&v, src);
    else
      v = *reinterpret_cast<const Vec<T, W> *>(src);
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = v.v[k];
  }
}

/// W elements written to `dst` (aligned to W elements) with policy (E, C).
template <int W, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void store_run(T *dst, const T *src) {
  static_assert(W * sizeof(T) <= 16, "an access moves at most 16 bytes");
  if constexpr (W == 1 && !detail::hinted<E, C>) {
    *dst = src[0];
  } else {
    Vec<T, W> v;
#pragma unroll
    for (int k = 0; k < W; ++k)
      v.v[k] = src[k];
    if constexpr (detail::hinted<E, C>)
      detail::store_bytes<E, C, int(W * sizeof(T))>(dst, &v);
    else
      detail::store_bytes_plain<int(W * sizeof(T))>(dst, &v);
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
template <int W, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void load_vec(T *dst, const T *src) {
  load_run<W, E, C>(dst, src);
}

/// Masked, masked-off lanes take `other`.
template <int W, bool MASK_UNIFORM, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void load_vec(T *dst, const T *src, const bool *mask, T other) {
  if constexpr (MASK_UNIFORM && !detail::hinted<E, C> && sizeof(T) < 4 && W * sizeof(T) % 4 == 0) {
    // Narrow elements, one mask for the run: the run's words start as `other`, one move per
    // 32 bits (not a move and a merge per element), and the vector load overwrites them
    // when the mask is on.
    constexpr int WORDS = int(W * sizeof(T) / 4);
    Vec<uint32_t, WORDS> words;
    const uint32_t fill = detail::splat_word(other);
#pragma unroll
    for (int j = 0; j < WORDS; ++j)
      words.v[j] = fill;
    if (mask[0]) {
      words = *reinterpret_cast<const Vec<uint32_t, WORDS> *>(src);
    }
    // Each element out of its word (register moves: nothing goes through memory).
#pragma unroll
    for (int k = 0; k < W; ++k) {
      constexpr int PER_WORD = int(4 / sizeof(T));
      const uint32_t word = words.v[k / PER_WORD] >> (8 * sizeof(T) * (k % PER_WORD));
      if constexpr (sizeof(T) == 1) {
        const uint8_t bits = uint8_t(word);
        memcpy(&dst[k], &bits, 1); // a device builtin under NVRTC and nvcc alike
      } else {
        const uint16_t bits = uint16_t(word);
        memcpy(&dst[k], &bits, 2);
      }
    }
    return;
  }
  if constexpr (MASK_UNIFORM) {
    // One mask for the run: the run starts as `other` and the vector load overwrites it when
    // the mask is on. A predicated load and no branch; a path lane by lane would never run
    // (the mask is the same over the run), but its scalar loads and branches around every
    // vector load kept ptxas from issuing a float tile's loads together (weight_norm's
    // column sweep: 260 loads in its SASS where Triton has 33).
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = other;
    if (mask[0])
      load_run<W, E, C>(dst, src);
    return;
  }
  if (all_on<W, MASK_UNIFORM>(mask)) {
    load_run<W, E, C>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k) {
      if constexpr (detail::hinted<E, C>) {
        dst[k] = other;
        if (mask[k])
          load_run<1, E, C>(&dst[k], &src[k]);
      } else {
        dst[k] = mask[k] ? src[k] : other;
      }
    }
  }
}

/// Masked, `other` given per element.
template <int W, bool MASK_UNIFORM, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void load_vec(T *dst, const T *src, const bool *mask, const T *other) {
  if constexpr (MASK_UNIFORM) { // as above: `other`, overwritten by one predicated load
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = other[k];
    if (mask[0])
      load_run<W, E, C>(dst, src);
    return;
  }
  if (all_on<W, MASK_UNIFORM>(mask)) {
    load_run<W, E, C>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k) {
      if constexpr (detail::hinted<E, C>) {
        dst[k] = other[k];
        if (mask[k])
          load_run<1, E, C>(&dst[k], &src[k]);
      } else {
        dst[k] = mask[k] ? src[k] : other[k];
      }
    }
  }
}

/// One mask for the whole tile.
template <int W, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void load_vec(T *dst, const T *src, bool mask, T other) {
  if (mask) {
    load_run<W, E, C>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = other;
  }
}

/// A scalar load (every thread reads the one element) with policy (E, C).
template <Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline T load_one(const T *src) {
  T v;
  load_run<1, E, C>(&v, src);
  return v;
}

// ---- stores (`owner` is false on threads that hold copies) ----

template <int W, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void store_vec(T *dst, const T *src, bool owner) {
  if (owner)
    store_run<W, E, C>(dst, src);
}

template <int W, bool MASK_UNIFORM, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void store_vec(T *dst, const T *src, const bool *mask, bool owner) {
  if (!owner)
    return;
  if (all_on<W, MASK_UNIFORM>(mask)) {
    store_run<W, E, C>(dst, src);
  } else if (!MASK_UNIFORM) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (mask[k])
        store_run<1, E, C>(&dst[k], &src[k]);
  }
}

template <int W, Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void store_vec(T *dst, const T *src, bool mask, bool owner) {
  if (owner && mask)
    store_run<W, E, C>(dst, src);
}

/// A scalar store (one thread writes it for the program) with policy (E, C); the value has
/// the pointee's type already (not deduced from it).
template <Evict E = Evict::normal, Cache C = Cache::normal, class T>
__device__ inline void store_one(T *dst, typename Vec<T, 1>::value_type value) {
  store_run<1, E, C>(dst, &value);
}

} // namespace tilec
