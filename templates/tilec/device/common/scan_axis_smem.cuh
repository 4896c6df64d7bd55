// scan_axis_smem.cuh: inclusive scans along one axis through shared memory, for the layouts
// the register scans (scan.cuh for Blocked1D, scan_axis.cuh for Blocked2D) do not take:
// Blocked3D tiles, their rank-2 and rank-1 slices, and slices of Blocked2D tiles.
//
// Every owner writes its elements at their row-major positions (one padding word per 32, so
// that threads walking lines 32 elements apart use different banks: relayout.cuh's
// stage_row_major), the block synchronizes, and the lines along the axis (reduce_axis_smem.cuh's
// AxisLine) are scanned in place. When there are fewer lines than threads, each line is cut
// into SEGS segments: every thread scans one segment, then combines the totals of the segments
// before it (in scan order) into a prefix and applies it. Finally every thread reads back the
// elements it holds. The accumulated value stays op's first operand, as in scan.cuh, so op
// need not be commutative.
#pragma once

#include <tilec/device/common/reduce_axis_smem.cuh>
#include <tilec/device/common/relayout.cuh>

namespace tilec {

/// Shared memory scan_axis_smem<P, ...> needs for elements of type T.
template <class P, class T> __host__ __device__ constexpr int scan_axis_smem_bytes() {
  constexpr int n = tile_elements<P>();
  return int(cmax(16, (row_major_slot<true>(n - 1) + 1) * int(sizeof(T))));
}

/// Replaces the tile v[0 .. P::ELEMS) (any layout with owners and row-major positions) with its
/// inclusive scan under `op` along dimension DIM of the tile (REVERSE: from the last index
/// down). THREADS: the block's threads, all of which call it; `smem` holds
/// scan_axis_smem_bytes<P, T>() bytes and is free again when it returns.
template <class P, int DIM, int THREADS, class T, class Op, bool REVERSE = false>
__device__ inline void scan_axis_smem(T *v, Op op, int tid, unsigned char *smem) {
  using Line = detail::AxisLine<P, DIM>;
  constexpr int LEN = Line::length(), STRIDE = Line::stride();
  constexpr int LINES = tile_elements<P>() / LEN;
  constexpr int SEGS = LINES >= THREADS ? 1 : int(cmin(LEN, THREADS / LINES));
  constexpr int SEG_LEN = LEN / SEGS;
  static_assert(LEN % SEGS == 0, "tile dimensions are powers of two");
  // The slot of element k of line `line` (lines in row-major order of the other axes).
  auto slot = [](int line, int k) {
    return row_major_slot<true>(line / STRIDE * (LEN * STRIDE) + line % STRIDE + k * STRIDE);
  };
  T *buf = reinterpret_cast<T *>(smem);
  stage_row_major<P, /*PAD=*/true>(v, buf, tid);
  // Each segment on its own, in scan order.
  for (int w = tid; w < LINES * SEGS; w += THREADS) {
    const int line = w / SEGS, first = w % SEGS * SEG_LEN;
    T acc = buf[slot(line, REVERSE ? first + SEG_LEN - 1 : first)];
    for (int kk = 1; kk < SEG_LEN; ++kk) {
      const int at = slot(line, REVERSE ? first + SEG_LEN - 1 - kk : first + kk);
      acc = T(op(acc, buf[at]));
      buf[at] = acc;
    }
  }
  if constexpr (SEGS > 1) {
    // The totals of the earlier segments (in scan order), read before any segment changes.
    __syncthreads();
    const int line = tid / SEGS, s = tid % SEGS;
    const int earlier = REVERSE ? SEGS - 1 - s : s; // segments before this one
    const bool active = tid < LINES * SEGS && earlier > 0;
    T prefix{};
    if (active) {
      for (int q = 0; q < earlier; ++q) {
        const int seg = REVERSE ? SEGS - 1 - q : q;
        const T total = buf[slot(line, REVERSE ? seg * SEG_LEN : seg * SEG_LEN + SEG_LEN - 1)];
        prefix = q == 0 ? total : T(op(prefix, total));
      }
    }
    __syncthreads();
    if (active)
      for (int k = s * SEG_LEN; k < (s + 1) * SEG_LEN; ++k)
        buf[slot(line, k)] = T(op(prefix, buf[slot(line, k)]));
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < P::ELEMS; ++i)
    v[i] = buf[row_major_slot<true>(linear_index<P>(tid, i))];
  __syncthreads(); // smem is free for the caller's next use
}

} // namespace tilec
