// scan_axis_smem.cuh: inclusive scans along one axis through shared memory, for the layouts
// the register scans (scan.cuh for Blocked1D, scan_axis.cuh for Blocked2D) do not take:
// Blocked3D tiles, their rank-2 and rank-1 slices, and slices of Blocked2D tiles.
//
// Every owner writes its elements at their row-major positions (one padding word per 32, so
// that threads walking lines 32 elements apart use different banks), the block synchronizes,
// and the lines along the axis are scanned in place. When there are fewer lines than threads,
// each line is cut into SEGS segments: every thread scans one segment, then combines the
// totals of the segments before it (in scan order) into a prefix and applies it. Finally every
// thread reads back the elements it holds. The accumulated value stays op's first operand, as
// in scan.cuh, so op need not be commutative.
#pragma once

#include <tilec/device/relayout.cuh>

namespace tilec {
namespace detail {

/// The tile of layout P seen as a row-major [N0, N1, N2] array (unit dimensions where P has
/// fewer axes), and AXIS, the axis of that view that dimension DIM of the tile is.
template <class P, int DIM> struct ScanView {
  __host__ __device__ static constexpr int size(int a) {
    if constexpr (is_linear_layout<P>::value) // Blocked3D or a slice: the kept axes, in order
      return ((P::KEPT >> a) & 1) ? (a == 0 ? P::SIZE0 : a == 1 ? P::SIZE1 : P::SIZE2) : 1;
    else if constexpr (is_rank2_layout<P>::value)
      return a == 0 ? 1 : a == 1 ? P::ROWS : P::COLS;
    else
      return a == 2 ? P::TILE_SIZE : 1;
  }
  __host__ __device__ static constexpr int axis() {
    if constexpr (is_linear_layout<P>::value)
      return kept_axis(P::KEPT, DIM);
    else if constexpr (is_rank2_layout<P>::value)
      return DIM + 1;
    else
      return 2;
  }
  static constexpr int AXIS = axis();
  static constexpr int LEN = size(AXIS);                                // elements per line
  static constexpr int STRIDE = AXIS == 2 ? 1 : AXIS == 1 ? size(2) : size(1) * size(2);
  static constexpr int LINES = size(0) * size(1) * size(2) / LEN;
  /// Row-major position of element k of line `line`.
  __device__ static int at(int line, int k) {
    return line / STRIDE * (LEN * STRIDE) + line % STRIDE + k * STRIDE;
  }
};

/// Shared-memory slot of row-major position i: one padding element after every 32.
__device__ inline int padded(int i) { return i + i / 32; }

} // namespace detail

/// Shared memory scan_axis_smem<P, ...> needs for elements of type T.
template <class P, class T> __host__ __device__ constexpr int scan_axis_smem_bytes() {
  constexpr int n = tile_elements<P>();
  return int(cmax(16, (n + n / 32 + 1) * int(sizeof(T))));
}

/// Replaces the tile v[0 .. P::ELEMS) (any layout with owners and row-major positions) with its
/// inclusive scan under `op` along dimension DIM of the tile (REVERSE: from the last index
/// down). THREADS: the block's threads, all of which call it; `smem` holds
/// scan_axis_smem_bytes<P, T>() bytes and is free again when it returns.
template <class P, int DIM, int THREADS, class T, class Op, bool REVERSE = false>
__device__ inline void scan_axis_smem(T *v, Op op, int tid, unsigned char *smem) {
  using V = detail::ScanView<P, DIM>;
  constexpr int SEGS = V::LINES >= THREADS ? 1 : int(cmin(V::LEN, THREADS / V::LINES));
  constexpr int SEG_LEN = V::LEN / SEGS;
  static_assert(V::LEN % SEGS == 0, "tile dimensions are powers of two");
  T *buf = reinterpret_cast<T *>(smem);
  if (P::owner(tid))
#pragma unroll
    for (int i = 0; i < P::ELEMS; ++i)
      buf[detail::padded(linear_index<P>(tid, i))] = v[i];
  __syncthreads();
  // Each segment on its own, in scan order.
  for (int w = tid; w < V::LINES * SEGS; w += THREADS) {
    const int line = w / SEGS, first = w % SEGS * SEG_LEN;
    int at = V::at(line, REVERSE ? first + SEG_LEN - 1 : first);
    T acc = buf[detail::padded(at)];
    for (int kk = 1; kk < SEG_LEN; ++kk) {
      at += REVERSE ? -V::STRIDE : V::STRIDE;
      acc = T(op(acc, buf[detail::padded(at)]));
      buf[detail::padded(at)] = acc;
    }
  }
  if constexpr (SEGS > 1) {
    // The totals of the earlier segments (in scan order), read before any segment changes.
    __syncthreads();
    const int w = tid, line = w / SEGS, s = w % SEGS;
    const int earlier = REVERSE ? SEGS - 1 - s : s; // segments before this one
    const bool active = w < V::LINES * SEGS && earlier > 0;
    T prefix{};
    if (active) {
      for (int q = 0; q < earlier; ++q) {
        const int seg = REVERSE ? SEGS - 1 - q : q;
        const T total = buf[detail::padded(V::at(line, REVERSE ? seg * SEG_LEN : seg * SEG_LEN + SEG_LEN - 1))];
        prefix = q == 0 ? total : T(op(prefix, total));
      }
    }
    __syncthreads();
    if (active)
      for (int k = s * SEG_LEN; k < (s + 1) * SEG_LEN; ++k) {
        const int at = detail::padded(V::at(line, k));
        buf[at] = T(op(prefix, buf[at]));
      }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < P::ELEMS; ++i)
    v[i] = buf[detail::padded(linear_index<P>(tid, i))];
  __syncthreads(); // smem is free for the caller's next use
}

} // namespace tilec
