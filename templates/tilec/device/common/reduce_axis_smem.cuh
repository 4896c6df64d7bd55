// reduce_axis_smem.cuh: reduce one axis of a tile through shared memory, for the layouts the
// shuffle-based reduce_axis does not take (Blocked3D tiles and their slices) and for combines
// that need the elements in index order (tl::split takes the first or the last one).
//
// Every owner writes its elements at their row-major positions, the block synchronizes, and
// each thread folds, for every element of the slice it holds, the values along the axis in
// index order: op(op(x0, x1), x2)... The combine need not be commutative; the whole tile
// must fit the shared buffer (tile_elements<P>() * sizeof(T) bytes).
#pragma once

#include <tilec/device/common/layout3d.cuh>
#include <tilec/device/common/reduce.cuh>
#include <tilec/device/common/relayout.cuh>

namespace tilec {

/// tl::split as a reduction of the last axis (of size 2) in index order: the first or the
/// last element, bit for bit (no arithmetic touches the values).
struct FirstOp {
  template <class T> __device__ T operator()(T a, T) const { return a; }
};
struct LastOp {
  template <class T> __device__ T operator()(T, T b) const { return b; }
};

namespace detail {
/// One line along DIM of a P tile, in the row-major order of P's tile: where the line of
/// slice element j starts, how far apart its elements are, and how many there are. stride()
/// and length() also take rank-1 layouts (Blocked1D, slices of rank-2 layouts): one line.
template <class P, int DIM> struct AxisLine {
  static constexpr bool LIN = is_linear_layout<P>::value;
  static constexpr bool RANK1 = !LIN && !is_rank2_layout<P>::value;
  __host__ __device__ static constexpr int axis() { // the axis of P's [D0, D1, D2]
    if constexpr (LIN)
      return kept_axis(P::KEPT, DIM);
    else
      return DIM;
  }
  static constexpr int AXIS = axis();
  __host__ __device__ static constexpr int stride() {
    if constexpr (LIN)
      return P::linear_of(AXIS == 0, AXIS == 1, AXIS == 2);
    else if constexpr (RANK1)
      return 1;
    else
      return DIM == 1 ? 1 : P::COLS;
  }
  __host__ __device__ static constexpr int length() {
    if constexpr (LIN)
      return AXIS == 0 ? P::SIZE0 : AXIS == 1 ? P::SIZE1 : P::SIZE2;
    else if constexpr (RANK1)
      return P::TILE_SIZE;
    else
      return DIM == 1 ? P::COLS : P::ROWS;
  }
  __device__ static int start(int tid, int j) {
    using S = Slice<P, DIM>;
    if constexpr (LIN) // the slice's coordinates, 0 along DIM
      return P::linear_of(S::K0 ? S::axis_coord(tid, j, 0) : 0,
                          S::K1 ? S::axis_coord(tid, j, 1) : 0,
                          S::K2 ? S::axis_coord(tid, j, 2) : 0);
    else
      return DIM == 1 ? S::coord(tid, j) * P::COLS : S::coord(tid, j);
  }
};
} // namespace detail

/// out[j] (j < Slice<P, DIM>::ELEMS) = the values of the P tile `v` along DIM, for the kept
/// coordinates slice element j stands for, folded with `op` in index order. All threads of
/// the block call it; `smem` holds tile_elements<P>() * sizeof(T) bytes and is free again
/// when it returns.
template <class P, int DIM, class T, class Op>
__device__ inline void reduce_axis_smem(const T *v, T *out, Op op, int tid, unsigned char *smem) {
  using Line = detail::AxisLine<P, DIM>;
  T *buf = reinterpret_cast<T *>(smem);
  stage_row_major<P>(v, buf, tid);
#pragma unroll
  for (int j = 0; j < Slice<P, DIM>::ELEMS; ++j) {
    const int start = Line::start(tid, j);
    T acc = buf[start];
    for (int k = 1; k < Line::length(); ++k)
      acc = T(op(acc, buf[start + k * Line::stride()]));
    out[j] = acc;
  }
  __syncthreads();
}

/// out[j] = the index along DIM of the largest (IS_MAX) or smallest value of that line, with
/// arg_reduce_tile's rules (ties to the smallest index, NAN_WINS). Same contract as
/// reduce_axis_smem.
template <class P, int DIM, bool IS_MAX, class T, bool NAN_WINS = true>
__device__ inline void arg_reduce_axis_smem(const T *v, int *out, int tid, unsigned char *smem) {
  using Line = detail::AxisLine<P, DIM>;
  using C = detail::ArgCandidate<T>;
  detail::ArgCombine<IS_MAX, T, NAN_WINS> combine;
  T *buf = reinterpret_cast<T *>(smem);
  stage_row_major<P>(v, buf, tid);
#pragma unroll
  for (int j = 0; j < Slice<P, DIM>::ELEMS; ++j) {
    const int start = Line::start(tid, j);
    C best{buf[start], 0};
    for (int k = 1; k < Line::length(); ++k)
      best = combine(best, C{buf[start + k * Line::stride()], k});
    out[j] = best.index;
  }
  __syncthreads();
}

} // namespace tilec
