// reduce_axis.cuh: reduce one dimension of a rank-2 tile (Blocked2D) into its Slice.
//
// In three steps, as far as each is needed: inside a thread (the elements it holds along the
// reduced dimension), across the lanes of a warp that share the kept coordinate (xor
// shuffles), across warps (through shared memory). Every thread ends with the full result for
// each kept coordinate it covers, which is the Slice layout's promise. arg_reduce_axis
// reduces (value, index) pairs the same way, for argmax / argmin.
#pragma once

#include <tilec/device/common/layout2d.cuh>
#include <tilec/device/common/reduce.cuh>

namespace tilec {

/// Shared memory reduce_axis<P, DIM> needs for elements of type T (at least 16 bytes).
template <class P, int DIM, class T> __host__ __device__ constexpr int axis_scratch_bytes() {
  long long bytes = DIM == 1 ? (long long)P::W1 * P::R0 * P::ROWS_PER_PASS * sizeof(T)
                             : (long long)P::W0 * P::COLS * sizeof(T);
  return int(cmax(16, bytes));
}

/// out[j] (j < Slice<P, DIM>::ELEMS) = op-reduction of the P tile `v` along DIM, for the
/// coordinate of the kept dimension that slice element j stands for. All threads of the block
/// must call it; it synchronizes the block when warps must combine, and leaves `smem`
/// (axis_scratch_bytes<P, DIM, T>() bytes) free again.
///
/// `at(i)` gives element i of the thread's share (any callable: the array overload below reads
/// an array; arg_reduce_axis builds its (value, index) candidates through it, so that no array
/// of candidates is ever held in registers). `later(acc, x)` combines a thread's own elements,
/// x coming after everything in acc along DIM (arg reductions use that to skip the index
/// comparison; plain reductions pass `op` again). `settle(acc)` turns a thread's combined
/// elements into what lanes exchange (arg reductions carry the position i, a constant, while
/// a thread combines, and make it the tile's index once).
template <class P, int DIM, class T, class At, class Op, class Later, class Settle>
__device__ inline void reduce_axis_at(At at, T *out, Op op, int tid, unsigned char *smem,
                                      Later later, Settle settle) {
  static_assert(DIM == 0 || DIM == 1, "rank-2 tiles have dimensions 0 and 1");
  constexpr int PER_ROW = P::VEC * P::R1; // elements of one row held by a thread
  const int lane = tid % 32, warp = tid / 32;
  T *buf = reinterpret_cast<T *>(smem);
  if constexpr (DIM == 1) {
#pragma unroll
    for (int j = 0; j < P::R0; ++j) {
      T acc = at(j * PER_ROW);
#pragma unroll
      for (int k = 1; k < PER_ROW; ++k)
        acc = later(acc, at(j * PER_ROW + k));
      acc = settle(acc);
      // Lanes of one row differ in lane % TW1.
#pragma unroll
      for (int off = P::TW1 / 2; off > 0; off /= 2)
        acc = op(acc, shfl_xor(acc, off));
      out[j] = acc;
    }
    if constexpr (P::W1 > 1) {
      constexpr int SLOTS = P::R0 * P::ROWS_PER_PASS; // one per row slot of a warp column
      const int wc = warp % P::W1;
      if (lane % P::TW1 == 0)
#pragma unroll
        for (int j = 0; j < P::R0; ++j)
          buf[wc * SLOTS + j * P::ROWS_PER_PASS + P::trow(tid)] = out[j];
      __syncthreads();
#pragma unroll
      for (int j = 0; j < P::R0; ++j) {
        const int slot = j * P::ROWS_PER_PASS + P::trow(tid);
        T acc = buf[slot];
#pragma unroll
        for (int w = 1; w < P::W1; ++w)
          acc = op(acc, buf[w * SLOTS + slot]);
        out[j] = acc;
      }
      __syncthreads();
    }
  } else {
#pragma unroll
    for (int j = 0; j < PER_ROW; ++j) {
      T acc = at(j);
#pragma unroll
      for (int r = 1; r < P::R0; ++r)
        acc = later(acc, at(r * PER_ROW + j));
      acc = settle(acc);
      // Lanes of one column differ in lane / TW1; with copied rows (M < rows per pass) only
      // aligned groups of M rows are combined, each group holding every row once.
      constexpr int LANE_ROWS = int(cmin(P::TW0, P::ROWS));
#pragma unroll
      for (int s = LANE_ROWS / 2; s > 0; s /= 2)
        acc = op(acc, shfl_xor(acc, s * P::TW1));
      out[j] = acc;
    }
    // Warp rows that hold different rows of the tile.
    constexpr int GROUP = P::ROWS >= P::ROWS_PER_PASS ? P::W0
                          : P::ROWS > P::TW0          ? P::ROWS / P::TW0
                                                      : 1;
    if constexpr (GROUP > 1) {
      const int wr = warp / P::W1;
      const int slot0 = P::tcol(tid) * P::VEC; // first column slot of this thread's runs
      if (lane / P::TW1 == 0)
#pragma unroll
        for (int j = 0; j < PER_ROW; ++j)
          buf[wr * P::COLS + (j / P::VEC) * P::COLS_PER_PASS + slot0 + j % P::VEC] = out[j];
      __syncthreads();
      const int base = wr - wr % GROUP;
#pragma unroll
      for (int j = 0; j < PER_ROW; ++j) {
        const int slot = (j / P::VEC) * P::COLS_PER_PASS + slot0 + j % P::VEC;
        T acc = buf[base * P::COLS + slot];
#pragma unroll
        for (int g = 1; g < GROUP; ++g)
          acc = op(acc, buf[(base + g) * P::COLS + slot]);
        out[j] = acc;
      }
      __syncthreads();
    }
  }
}

template <class P, int DIM, class T, class Op>
__device__ inline void reduce_axis(const T *v, T *out, Op op, int tid, unsigned char *smem) {
  reduce_axis_at<P, DIM, T>([v](int i) { return v[i]; }, out, op, tid, smem, op,
                            [](T acc) { return acc; });
}

/// Shared memory arg_reduce_axis<P, DIM, IS_MAX, T> needs.
template <class P, int DIM, class T> __host__ __device__ constexpr int arg_axis_scratch_bytes() {
  return axis_scratch_bytes<P, DIM, detail::ArgCandidate<detail::arg_value_t<T>>>();
}

/// out[j] (j < Slice<P, DIM>::ELEMS) = the index along DIM (a column for DIM 1, a row for
/// DIM 0) of the largest (IS_MAX) or smallest element of the P tile `v` in the row or column
/// that slice element j stands for, with arg_reduce_tile's rules (ties to the smallest index,
/// NAN_WINS). Same contract as reduce_axis; `smem` holds arg_axis_scratch_bytes<P, DIM, T>().
///
/// With `values`, also writes each winner's value there: the max (min) reduction of the same
/// tile, from one pass over it instead of two.
template <class P, int DIM, bool IS_MAX, class T, bool NAN_WINS = true>
__device__ inline void arg_reduce_axis(const T *v, int *out, int tid, unsigned char *smem,
                                       T *values = nullptr) {
  static_assert(sizeof(T) <= 8, "reductions take elements of at most 8 bytes");
  using V = detail::arg_value_t<T>;
  using C = detail::ArgCandidate<V>;
  C best[Slice<P, DIM>::ELEMS];
  // While a thread combines its own elements, a candidate's index is its position i (an
  // immediate in each select, not one register per element); it becomes the index along DIM
  // before lanes exchange candidates.
  reduce_axis_at<P, DIM, C>(
      [v](int i) { return C{detail::arg_value(v[i]), i}; }, best,
      detail::ArgCombine<IS_MAX, V, NAN_WINS>{}, tid, smem,
      detail::ArgCombineLater<IS_MAX, V, NAN_WINS>{}, [tid](C c) {
        return C{c.value, DIM == 1 ? P::col(tid, c.index) : P::row(tid, c.index)};
      });
#pragma unroll
  for (int j = 0; j < Slice<P, DIM>::ELEMS; ++j) {
    out[j] = best[j].index;
    if (values)
      values[j] = cast<T>(best[j].value); // exact: the value was a T
  }
}

} // namespace tilec
