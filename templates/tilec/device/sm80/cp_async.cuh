// cp_async.cuh: copies from global to shared memory that run in the background (cp.async,
// sm_80 and newer), for software-pipelined loops: each iteration commits one group of
// copies; waiting for all but the newest N groups makes the older stages readable.
#pragma once

#include <tilec/device/common/smem_tile.cuh>

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
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(src), "n"(BYTES),
                 "r"(src_bytes)
                 : "memory");
}

__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

/// Waits until at most N committed groups are still in flight (and, on sm_90a, makes the
/// landed copies readable by wgmma once a barrier follows).
template <int N> __device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
  fence_shared_for_async_proxy();
}

/// `*p` when `pred`, else zero, as one predicated load: no branch, so that many of them in a
/// row stay straight-line code the compiler can schedule together.
template <class T> __device__ inline T load_or_zero(const T *p, bool pred) {
  T v;
  if constexpr (sizeof(T) == 1) {
    unsigned short r;
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n mov.b16 %0, 0;\n"
                 " @q ld.global.u8 %0, [%1];\n}\n"
                 : "=h"(r)
                 : "l"(p), "r"(int(pred)));
    unsigned char b = (unsigned char)r;
    v = *reinterpret_cast<const T *>(&b);
  } else if constexpr (sizeof(T) == 2) {
    unsigned short r;
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n mov.b16 %0, 0;\n"
                 " @q ld.global.b16 %0, [%1];\n}\n"
                 : "=h"(r)
                 : "l"(p), "r"(int(pred)));
    v = *reinterpret_cast<const T *>(&r);
  } else if constexpr (sizeof(T) == 4) {
    unsigned r;
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n mov.b32 %0, 0;\n"
                 " @q ld.global.b32 %0, [%1];\n}\n"
                 : "=r"(r)
                 : "l"(p), "r"(int(pred)));
    v = *reinterpret_cast<const T *>(&r);
  } else {
    unsigned long long r;
    asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n mov.b64 %0, 0;\n"
                 " @q ld.global.b64 %0, [%1];\n}\n"
                 : "=l"(r)
                 : "l"(p), "r"(int(pred)));
    v = *reinterpret_cast<const T *>(&r);
  }
  return v;
}

/// Copies a tile held as pointers in layout L (runs of W consecutive elements, pointers in
/// `ptrs`, masks in `mask` or none when it is null, masked-off elements become zero) into
/// `tile`. Runs of 4, 8 or 16 bytes whose mask is the same for the whole run go through
/// cp.async. Anything else is read now, through registers: every load is issued before the
/// first store to shared memory, so that their latencies overlap.
template <class L, int W, bool MASK_UNIFORM, class Tile, class T>
__device__ inline void copy_tile_async(T *tile, const T *const *ptrs, const bool *mask, int tid) {
  constexpr int BYTES = W * int(sizeof(T));
  if constexpr (MASK_UNIFORM && (BYTES == 4 || BYTES == 8 || BYTES == 16)) {
#pragma unroll
    for (int i = 0; i < L::ELEMS; i += W)
      cp_async<BYTES>(tile + Tile::offset(L::row(tid, i), L::col(tid, i)), ptrs[i],
                      !mask || mask[i]);
  } else {
    T v[L::ELEMS];
#pragma unroll
    for (int i = 0; i < L::ELEMS; ++i)
      v[i] = load_or_zero(ptrs[i], !mask || mask[i]);
#pragma unroll
    for (int i = 0; i < L::ELEMS; ++i)
      tile[Tile::offset(L::row(tid, i), L::col(tid, i))] = v[i];
  }
}

/// The same without a mask.
template <class L, int W, class Tile, class T>
__device__ inline void copy_tile_async(T *tile, const T *const *ptrs, int tid) {
  copy_tile_async<L, W, true, Tile>(tile, ptrs, static_cast<const bool *>(nullptr), tid);
}

/// Copies a rank-1 tile held as pointers in layout L (runs of W consecutive elements, masks in
/// `mask` or none) into `stage`, a plain array of the tile's elements: runs of 4, 8 or 16
/// bytes with one mask through one cp.async each, else one cp.async per element (4 or 8
/// bytes: pipeline-loads stages no narrower element). Of the threads holding the same
/// elements, one copies them.
template <class L, int W, bool MASK_UNIFORM = true, class T>
__device__ inline void copy_run_async(T *stage, const T *const *ptrs, const bool *mask, int tid) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a rank-1 stage holds 4- or 8-byte elements");
  constexpr int BYTES = W * int(sizeof(T));
  if (!L::owner(tid))
    return;
  if constexpr (MASK_UNIFORM && (BYTES == 8 || BYTES == 16)) {
#pragma unroll
    for (int i = 0; i < L::ELEMS; i += W)
      cp_async<BYTES>(stage + L::coord(tid, i), ptrs[i], !mask || mask[i]);
  } else {
#pragma unroll
    for (int i = 0; i < L::ELEMS; ++i)
      cp_async<int(sizeof(T))>(stage + L::coord(tid, i), ptrs[i], !mask || mask[i]);
  }
}

template <class L, int W, class T>
__device__ inline void copy_run_async(T *stage, const T *const *ptrs, int tid) {
  copy_run_async<L, W, true>(stage, ptrs, static_cast<const bool *>(nullptr), tid);
}

/// Reads a rank-1 stage that copy_run_async filled into registers in layout L (any rank-1
/// layout: the copier's or another), after the wait and barrier that publish the stage.
template <class L, class T> __device__ inline void read_stage(const T *stage, T *regs, int tid) {
#pragma unroll
  for (int i = 0; i < L::ELEMS; ++i)
    regs[i] = stage[L::coord(tid, i)];
}

} // namespace tilec
