// global_access.cuh: loads and stores of one run of W consecutive elements of a thread.
//
// W is the access width layout assignment proved safe (contiguous, aligned to W elements, at
// most 16 bytes). With a mask, the vector access is used when every lane of the run is on;
// otherwise each lane is accessed alone, and masked-off lanes are never dereferenced. When the
// analysis proved the mask constant over each run (MASK_UNIFORM), only its first lane is read.
#pragma once

#include <tilec/device/compat.cuh>

namespace tilec {

/// W elements moved as one access of W * sizeof(T) bytes.
template <class T, int W> struct alignas(sizeof(T) * W) Vec {
  T v[W];
};

template <int W, class T> __device__ inline void load_run(T *dst, const T *src) {
  static_assert(W * sizeof(T) <= 16, "an access moves at most 16 bytes");
  if constexpr (W == 1) {
    dst[0] = *src;
  } else {
    const Vec<T, W> v = *reinterpret_cast<const Vec<T, W> *>(src);
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = v.v[k];
  }
}

template <int W, class T> __device__ inline void store_run(T *dst, const T *src) {
  static_assert(W * sizeof(T) <= 16, "an access moves at most 16 bytes");
  if constexpr (W == 1) {
    *dst = src[0];
  } else {
    Vec<T, W> v;
#pragma unroll
    for (int k = 0; k < W; ++k)
      v.v[k] = src[k];
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
template <int W, class T> __device__ inline void load_vec(T *dst, const T *src) {
  load_run<W>(dst, src);
}

/// Masked, masked-off lanes take `other`.
template <int W, bool MASK_UNIFORM, class T>
__device__ inline void load_vec(T *dst, const T *src, const bool *mask, T other) {
  if (all_on<W, MASK_UNIFORM>(mask)) {
    load_run<W>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = mask[k] ? src[k] : other;
  }
}

/// Masked, `other` given per element.
template <int W, bool MASK_UNIFORM, class T>
__device__ inline void load_vec(T *dst, const T *src, const bool *mask, const T *other) {
  if (all_on<W, MASK_UNIFORM>(mask)) {
    load_run<W>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = mask[k] ? src[k] : other[k];
  }
}

/// One mask for the whole tile.
template <int W, class T>
__device__ inline void load_vec(T *dst, const T *src, bool mask, T other) {
  if (mask) {
    load_run<W>(dst, src);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k)
      dst[k] = other;
  }
}

// ---- stores (`owner` is false on threads that hold copies) ----

template <int W, class T> __device__ inline void store_vec(T *dst, const T *src, bool owner) {
  if (owner)
    store_run<W>(dst, src);
}

template <int W, bool MASK_UNIFORM, class T>
__device__ inline void store_vec(T *dst, const T *src, const bool *mask, bool owner) {
  if (!owner)
    return;
  if (all_on<W, MASK_UNIFORM>(mask)) {
    store_run<W>(dst, src);
  } else if (!MASK_UNIFORM) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (mask[k])
        dst[k] = src[k];
  }
}

template <int W, class T>
__device__ inline void store_vec(T *dst, const T *src, bool mask, bool owner) {
  if (owner && mask)
    store_run<W>(dst, src);
}

} // namespace tilec
