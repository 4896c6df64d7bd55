// prefetch.cuh: the rows a program loads as whole tiles, brought into L2 by the copy engine
// ahead of their loads (prefetch-rows). Where a thread's share of the rows is large, ptxas
// spreads its loads through the kernel rather than hold them all in registers at once (a GLU
// backward pass loads three rows of 16384 bf16, 96 values a thread, and issued them in four
// groups); with one block per SM, each group then waits on DRAM with nothing to overlap it.
// With the rows already on their way to L2, the later groups wait on L2 instead. One thread
// asks for each row with one instruction; nothing is written, and the loads are unchanged, so
// values never depend on it.
//
// Below PREFETCH_L2_MIN_BYTES_PER_THREAD (48 registers of loaded values) the loads go out
// together anyway, and the prefetch only adds copy-engine work: the norms' forward passes (32
// to 64 bytes a thread) ran 10-23% slower with it on the H200, GEGLU's forward (128) 3%;
// GEGLU's backward (192) ran 15% faster (bench/NOTES.md). Nothing before sm_90.
#pragma once

namespace tilec {

inline constexpr long long PREFETCH_L2_MIN_BYTES_PER_THREAD = 192;

/// Thread 0 prefetches [p, p + count) (count clamped to [0, TILE_ELEMS]) into L2, from p
/// rounded down to 16 bytes to the end rounded down to 16 bytes: the copy engine's alignment,
/// and never past the row (an allocation starts at least 256-byte aligned, so the rounded start
/// stays inside it). BYTES_PER_THREAD: all the program's prefetched rows over its threads.
template <long long TILE_ELEMS, long long BYTES_PER_THREAD, class T>
__device__ inline void prefetch_row_l2(int tid, const T *p, long long count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (BYTES_PER_THREAD >= PREFETCH_L2_MIN_BYTES_PER_THREAD) {
    if (tid != 0)
      return;
    count = count < 0 ? 0 : count > TILE_ELEMS ? TILE_ELEMS : count;
    const unsigned long long start = reinterpret_cast<unsigned long long>(p);
    const unsigned long long first = start & ~15ull;
    const unsigned long long end =
        (start + static_cast<unsigned long long>(count) * sizeof(T)) & ~15ull;
    if (end > first)
      asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(first),
                   "r"(unsigned(end - first))
                   : "memory");
  }
#else
  (void)tid;
  (void)p;
  (void)count;
#endif
}

} // namespace tilec
