// dot.cuh: tl::dot of operands staged in shared memory, choosing the instructions by the
// architecture the code is compiled for: wgmma (sm90/) where it fits on sm_90a, else mma.sync
// (sm80/), or CUDA-core FMAs for exact float. The one place that reaches into both sm80/ and
// sm90/; generated code calls dot_smem and never names an instruction family.
#pragma once

#include <tilec/device/sm80/mma.cuh>
#include <tilec/device/sm90/wgmma.cuh>

namespace tilec {

/// Float operands: tensor cores at tf32 precision (the default) or exact float FMAs.
struct DotTf32 {};
struct DotIeee {};

/// tl::dot of operands staged in shared memory: tensor cores (wgmma where it fits on
/// sm_90a, else mma.sync), or FMAs for exact float.
/// WAIT = false issues wgmma without waiting for it: `acc` may be read only after a later
/// dot_wait(acc) (the other instruction families finish before returning).
/// ZERO: acc = A * B; `acc` is not read, so it needs no zeros written first (wgmma's first
/// step of each band overwrites instead of adding; the other families start from zeros).
template <class L, class TileA, class TileB, class Precision, bool TRANS_A = false,
          bool TRANS_B = false, bool WAIT = true, bool ZERO = false, class T, class Acc>
__device__ inline void dot_smem(const T *sa, const T *sb, Acc *acc, int tid) {
  constexpr bool tensor_cores = !(sizeof(T) == 4 && is_same_v<Precision, DotIeee>);
  if constexpr (tensor_cores && wgmma_fits<L, TileA, TileB, TRANS_A, TRANS_B, T, Acc>()) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    wgmma_block<L, TileA, TileB, TRANS_A, TRANS_B, WAIT, ZERO>(sa, sb, acc, tid);
#endif
  } else {
    if constexpr (ZERO)
#pragma unroll
      for (int i = 0; i < L::ELEMS; ++i)
        acc[i] = Acc(0);
    if constexpr (!tensor_cores)
      fma_block<L, TileA, TileB, TRANS_A, TRANS_B>(sa, sb, acc, tid);
    else
      mma_block<L, TileA, TileB, TRANS_A, TRANS_B>(sa, sb, acc, tid);
  }
}

/// tl::dot whose A operand is held in registers in the mma layout LA (a tl::dot result cast
/// to the operand type) and whose B is in shared memory: on sm_90a, when the warps split A's
/// rows as they split the result's, wgmma reads A straight from the registers; otherwise A is
/// staged in `smem` (SmemTile<LA::ROWS, LA::COLS, T>::BYTES) and dot_smem runs. All threads of
/// the block call it.
template <class L, class LA, class TileB, class Precision, bool TRANS_B = false, bool WAIT = true,
          bool ZERO = false, class T, class Acc>
__device__ inline void dot_regs_a(const T *a, const T *sb, Acc *acc, int tid, unsigned char *smem) {
  if constexpr (wgmma_regs_a_fits<L, LA, TileB, TRANS_B, T, Acc>()) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    wgmma_block_rs<L, LA, TileB, TRANS_B, WAIT, ZERO>(a, sb, acc, tid);
#endif
  } else {
    using TileA = SmemTile<LA::ROWS, LA::COLS, T>;
    T *sa = reinterpret_cast<T *>(smem);
    store_to_smem<LA, TileA>(a, sa, tid);
    __syncthreads();
    dot_smem<L, TileA, TileB, Precision, false, TRANS_B, true, ZERO>(sa, sb, acc, tid);
    __syncthreads(); // the scratch buffer is free again
  }
}

/// Completes the tl::dots issued with WAIT = false (on sm_90a, every wgmma in flight) and
/// keeps the compiler from reading their accumulators `acc` before. Elsewhere those dots
/// were complete when they returned.
template <int N, class Acc> __device__ inline void dot_wait(Acc (&acc)[N]) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
  for (int i = 0; i < N; ++i)
    pin_accumulator(acc[i]);
#else
  (void)acc;
#endif
}

/// Shared memory dot_regs_a needs: none (16 bytes) where wgmma takes A from registers, A's
/// tile where it is staged.
template <class L, class LA, class TileB, bool TRANS_B, class T, class Acc>
__host__ __device__ constexpr int dot_regs_a_scratch_bytes() {
  return wgmma_regs_a_fits<L, LA, TileB, TRANS_B, T, Acc>()
             ? 16
             : SmemTile<LA::ROWS, LA::COLS, T>::BYTES;
}

/// Shared memory a tl::dot of register operands needs for staging them.
template <class TileA, class TileB> __host__ __device__ constexpr int dot_scratch_bytes() {
  return TileA::BYTES + TileB::BYTES;
}

} // namespace tilec
