// reduce_axis_mma.cuh: reduce one dimension of a tl::dot result where the tensor cores left
// it (MmaLayout), into the layout's rank-1 slice: no trip through shared memory unless
// several warps share the kept coordinate.
//
// Rows (DIM 1): a thread combines its elements of each of its rows (two rows per 16-row
// band: g and g + 8), then the four lanes of a quad that share those rows (xor 1, 2), then,
// when WN > 1 warps split the columns, the warps through shared memory. Columns (DIM 0) are
// the mirror image: the eight quads that share a column (xor 4, 8, 16), then WM warps.
// This is what an attention kernel's row max and row sum of the scores need every
// iteration; with all warps along M (the usual split) they stay in registers.
#pragma once

#include <tilec/device/common/warp.cuh>
#include <tilec/device/sm80/mma_layout.cuh>

namespace tilec {

/// Shared memory reduce_axis_mma<P, DIM> needs (16 bytes when it needs none).
template <class P, int DIM, class T> __host__ __device__ constexpr int mma_axis_scratch_bytes() {
  long long bytes = DIM == 1 ? (P::WN > 1 ? (long long)P::WN * P::ROWS * sizeof(T) : 0)
                             : (P::WM > 1 ? (long long)P::WM * P::COLS * sizeof(T) : 0);
  return int(bytes > 16 ? bytes : 16);
}

/// out[j] (j < Slice<P, DIM>::ELEMS) = op-reduction of the MmaLayout tile `v` along DIM.
/// All threads of the block call it; it synchronizes the block only when warps must
/// combine, and leaves `smem` free again.
template <class P, int DIM, class T, class Op>
__device__ inline void reduce_axis_mma(const T *v, T *out, Op op, int tid, unsigned char *smem) {
  static_assert(DIM == 0 || DIM == 1, "rank-2 tiles have dimensions 0 and 1");
  using S = Slice<P, DIM>;
  // Element i = ((mt * NT) + nt) * 4 + h * 2 + c: band mt, fragment nt, row half h, column c.
  bool first[S::ELEMS];
#pragma unroll
  for (int j = 0; j < S::ELEMS; ++j)
    first[j] = true;
#pragma unroll
  for (int i = 0; i < P::ELEMS; ++i) {
    const int j = S::from_parent(i);
    out[j] = first[j] ? v[i] : op(out[j], v[i]);
    first[j] = false;
  }
  // Lanes holding the same rows differ in lane % 4; the same columns, in lane / 4.
#pragma unroll
  for (int j = 0; j < S::ELEMS; ++j) {
    if constexpr (DIM == 1) {
      out[j] = op(out[j], shfl_xor(out[j], 1));
      out[j] = op(out[j], shfl_xor(out[j], 2));
    } else {
      out[j] = op(out[j], shfl_xor(out[j], 4));
      out[j] = op(out[j], shfl_xor(out[j], 8));
      out[j] = op(out[j], shfl_xor(out[j], 16));
    }
  }
  constexpr int SHARERS = DIM == 1 ? P::WN : P::WM; // warps that split the reduced dimension
  if constexpr (SHARERS > 1) {
    constexpr int LEN = S::TILE_SIZE;
    T *buf = reinterpret_cast<T *>(smem);
    const int lane = tid % 32;
    const int w = DIM == 1 ? P::warp_n(tid) : P::warp_m(tid);
    // Warps past WM x WN hold copies and write the same values.
    if (DIM == 1 ? lane % 4 == 0 : lane / 4 == 0)
#pragma unroll
      for (int j = 0; j < S::ELEMS; ++j)
        buf[w * LEN + S::coord(tid, j)] = out[j];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < S::ELEMS; ++j) {
      const int c = S::coord(tid, j);
      T acc = buf[c];
#pragma unroll
      for (int s = 1; s < SHARERS; ++s)
        acc = op(acc, buf[s * LEN + c]);
      out[j] = acc;
    }
    __syncthreads();
  }
}

} // namespace tilec
