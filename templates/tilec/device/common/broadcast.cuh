// broadcast.cuh: one thread's value to every thread of the block, through shared memory (for
// scalar results that one thread computed, such as the old value of a scalar atomic).
#pragma once

#include <tilec/device/common/compat.cuh>

namespace tilec {

/// The value `v` of thread `src_tid` (threadIdx.x), returned in every thread of the block.
/// Must be called by all threads of the block (it holds two __syncthreads); `smem` points at
/// sizeof(T) bytes or more of shared memory, aligned for T, reserved by the caller and free
/// again when the call returns.
template <class T> __device__ inline T block_broadcast(T v, int src_tid, unsigned char *smem) {
  static_assert(sizeof(T) <= 512, "the broadcast value fits in the caller's smem");
  T *slot = reinterpret_cast<T *>(smem);
  if (int(threadIdx.x) == src_tid)
    *slot = v;
  __syncthreads();
  const T out = *slot;
  __syncthreads(); // every thread has read the slot: it is free for the caller's next use
  return out;
}

} // namespace tilec
