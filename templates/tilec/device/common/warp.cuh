// warp.cuh: warp shuffles of any small trivially copyable value (int8, half, a pair of
// value and index, ...), moved as 32-bit words. CUDA's own __shfl_*_sync overloads cover only
// some element types; these cover every type a tile can hold.
//
// Every lane of the warp must call them (full mask): tile code runs whole warps in step.
#pragma once

#include <tilec/device/common/compat.cuh>

namespace tilec {

/// Lanes per warp.
inline constexpr int WARP_SIZE = 32;

/// The value `v` of lane `src_lane` (taken modulo 32), for every lane of the warp.
template <class T> __device__ inline T shfl_idx(T v, int src_lane) {
  constexpr int WORDS = int((sizeof(T) + 3) / 4);
  static_assert(WORDS <= 4, "shuffled values are at most 16 bytes");
  unsigned w[WORDS] = {};
  memcpy(w, &v, sizeof(T)); // a device builtin under NVRTC and nvcc alike
#pragma unroll
  for (int k = 0; k < WORDS; ++k)
    w[k] = __shfl_sync(0xffffffffu, w[k], src_lane);
  memcpy(&v, w, sizeof(T));
  return v;
}

/// The value `v` of lane (this lane ^ lane_mask), for every lane of the warp.
template <class T> __device__ inline T shfl_xor(T v, int lane_mask) {
  constexpr int WORDS = int((sizeof(T) + 3) / 4);
  static_assert(WORDS <= 4, "shuffled values are at most 16 bytes");
  unsigned w[WORDS] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int k = 0; k < WORDS; ++k)
    w[k] = __shfl_xor_sync(0xffffffffu, w[k], lane_mask);
  memcpy(&v, w, sizeof(T));
  return v;
}

} // namespace tilec
