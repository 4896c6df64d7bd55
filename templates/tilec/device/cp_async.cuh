// cp_async.cuh: copies from global to shared memory that run in the background (cp.async,
// sm_80 and newer), for software-pipelined loops: each iteration commits one group of
// copies; waiting for all but the newest N groups makes the older stages readable.
#pragma once

#include <tilec/device/smem_tile.cuh>

namespace tilec {

/// Starts copying BYTES (4, 8 or 16) from `src` to `dst`; with `pred` false nothing is read
/// and `dst` is filled with zeros.
template <int BYTES> __device__ inline void cp_async(void *dst, const void *src, bool pred) {
  static_assert(BYTES == 4 || BYTES == 8 || BYTES == 16, "cp.async copies 4, 8 or 16 bytes");
  unsigned s = unsigned(__cvta_generic_to_shared(dst));
  int src_bytes = pred ? BYTES : 0;
  if constexpr (BYTES == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src),
                 "r"(src_bytes)
                 : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(src),
                 "n"(BYTES), "r"(src_bytes)
                 : "memory");
}

__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

/// Waits until at most N committed groups are still in flight.
template <int N> __device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/// Copies a run of W consecutive elements (tile element (r, c) onwards) from `src` into
/// `tile`, masked (masked-off elements become zero). Runs of 4, 8 or 16 bytes whose mask is
/// the same for the whole run go through cp.async; anything else is copied now, through
/// registers.
template <int W, bool MASK_UNIFORM, class Tile, class T>
__device__ inline void copy_run_async(T *tile, int r, int c, const T *src, const bool *mask) {
  T *dst = tile + Tile::offset(r, c);
  constexpr int BYTES = W * int(sizeof(T));
  if constexpr (MASK_UNIFORM && (BYTES == 4 || BYTES == 8 || BYTES == 16)) {
    cp_async<BYTES>(dst, src, mask[0]);
  } else {
#pragma unroll
    for (int v = 0; v < W; ++v)
      dst[v] = mask[v] ? src[v] : T{}; // T{} is zero for every element type
  }
}

/// The same without a mask.
template <int W, class Tile, class T>
__device__ inline void copy_run_async(T *tile, int r, int c, const T *src) {
  T *dst = tile + Tile::offset(r, c);
  constexpr int BYTES = W * int(sizeof(T));
  if constexpr (BYTES == 4 || BYTES == 8 || BYTES == 16) {
    cp_async<BYTES>(dst, src, true);
  } else {
#pragma unroll
    for (int v = 0; v < W; ++v)
      dst[v] = src[v];
  }
}

} // namespace tilec
