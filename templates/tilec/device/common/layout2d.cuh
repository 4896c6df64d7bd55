// layout2d.cuh: rank-2 tiles over a thread block, and the rank-1 "slices" of them that
// reductions produce and expand_dims consumes.
//
// Blocked2D<M, N, THREADS, MAX_VEC, WARPS_DOWN>: an [M, N] tile, row-major. Each thread holds
// runs of VEC consecutive elements of a row; a warp's lanes cover TW1 runs side by side along
// a row and TW0 rows; warps are laid out W1 along the row and W0 down the columns. One pass of
// the whole block covers ROWS_PER_PASS x COLS_PER_PASS elements; a thread repeats that R0 x R1
// times. Warps go along the rows first, as far as the rows are long enough; WARPS_DOWN puts
// them down the columns first instead, as far as there are rows, so that a row's reduction
// needs no other warp.
//
//   element i of thread t:  v = i % VEC, r1 = (i / VEC) % R1, r0 = i / (VEC * R1)
//   row = r0 * ROWS_PER_PASS + trow(t),   col = r1 * COLS_PER_PASS + tcol(t) * VEC + v
//
// Columns never repeat (VEC * TW1 * W1 <= N by construction). Rows repeat when M is smaller
// than ROWS_PER_PASS: such threads hold copies and are not owners.
//
// Slice<P, DIM>: the rank-1 tile left when dimension DIM of a P tile is reduced (or the
// operand of expand_dims<DIM> that broadcasts into P). Every thread holds the values for the
// coordinates of the kept dimension it covers in P, so broadcasting back into P is a register
// read: element i of P uses element from_parent(i) of the slice.
#pragma once

#include <tilec/device/common/constexpr_math.cuh>

namespace tilec {

template <int M, int N, int THREADS, int MAX_VEC, bool WARPS_DOWN = false> struct Blocked2D {
  static_assert(M > 0 && (M & (M - 1)) == 0 && N > 0 && (N & (N - 1)) == 0,
                "tile dimensions must be powers of two");
  static_assert(THREADS >= 32 && (THREADS & (THREADS - 1)) == 0,
                "num_warps must be a power of two");
  static constexpr int ROWS = M, COLS = N;
  static constexpr int WARPS = THREADS / 32;
  static constexpr int VEC = int(cmin(MAX_VEC, N));
  static constexpr int TW1 = int(cmin(32, N / VEC)); // lanes along a row
  static constexpr int TW0 = 32 / TW1;               // lanes down the columns
  // Warps one row's runs can take side by side, and warps the rows can take one below another.
  static constexpr int W1_FIT = int(cmax(1, N / (VEC * TW1)));
  static constexpr int W0_FIT = int(cmin(WARPS, cmax(1, M / TW0)));
  static constexpr int W1 = int(cmin(WARPS_DOWN ? WARPS / W0_FIT : WARPS, W1_FIT));
  static constexpr int W0 = WARPS / W1;
  static constexpr int ROWS_PER_PASS = TW0 * W0;
  static constexpr int COLS_PER_PASS = VEC * TW1 * W1;
  static constexpr bool REPLICATED = M < ROWS_PER_PASS;
  static constexpr int R0 = REPLICATED ? 1 : M / ROWS_PER_PASS;
  static constexpr int R1 = N / COLS_PER_PASS;
  static constexpr int ELEMS = R0 * R1 * VEC;
  static_assert(COLS_PER_PASS <= N, "columns must not repeat");

  __device__ static constexpr int trow(int tid) { return (tid % 32) / TW1 + (tid / 32 / W1) * TW0; }
  __device__ static constexpr int tcol(int tid) { return (tid % 32) % TW1 + (tid / 32 % W1) * TW1; }
  __device__ static constexpr int row(int tid, int i) {
    int r = (i / (VEC * R1)) * ROWS_PER_PASS + trow(tid);
    return REPLICATED ? (r & (M - 1)) : r;
  }
  __device__ static constexpr int col(int tid, int i) {
    return ((i / VEC) % R1) * COLS_PER_PASS + tcol(tid) * VEC + i % VEC;
  }
  /// False for threads whose rows are copies held elsewhere.
  __device__ static constexpr bool owner(int tid) { return !REPLICATED || trow(tid) < M; }
};

template <class P, int DIM> struct Slice;

/// Rows of P (dimension 1 reduced): one value per row a thread covers.
template <class P> struct Slice<P, 1> {
  using Parent = P;
  static constexpr int TILE_SIZE = P::ROWS;
  static constexpr int VEC = 1;
  static constexpr int ELEMS = P::R0;
  __device__ static constexpr int coord(int tid, int j) {
    int r = j * P::ROWS_PER_PASS + P::trow(tid);
    return P::REPLICATED ? (r & (P::ROWS - 1)) : r;
  }
  __device__ static constexpr int from_parent(int i) { return i / (P::VEC * P::R1); }
  /// One thread per row stores: the first along the row, and not a copy.
  __device__ static constexpr bool owner(int tid) { return P::tcol(tid) == 0 && P::owner(tid); }
};

/// Columns of P (dimension 0 reduced): runs of VEC columns per thread.
template <class P> struct Slice<P, 0> {
  using Parent = P;
  static constexpr int TILE_SIZE = P::COLS;
  static constexpr int VEC = P::VEC;
  static constexpr int ELEMS = P::R1 * P::VEC;
  __device__ static constexpr int coord(int tid, int j) {
    return (j / VEC) * P::COLS_PER_PASS + P::tcol(tid) * VEC + j % VEC;
  }
  __device__ static constexpr int from_parent(int i) { return i % (P::VEC * P::R1); }
  __device__ static constexpr bool owner(int tid) { return P::trow(tid) == 0; }
};

/// The same rank-1 tile moved from layout From to layout To (each a Blocked1D or a Slice)
/// through shared memory: owners write their elements at their tile coordinates, then every
/// thread reads the ones it holds in To. `smem` holds From::TILE_SIZE elements; all threads
/// of the block must call it; it leaves `smem` free again. Given THREADS, layouts that place
/// the elements alike (same_placement) copy registers instead.
/// True when layouts From and To of a rank-1 tile put the same coordinates in the same
/// registers of every thread (the row slices of two tl::dot results split alike over warps).
template <class From, class To, int THREADS> __device__ constexpr bool same_placement() {
  if (From::TILE_SIZE != To::TILE_SIZE || From::ELEMS != To::ELEMS)
    return false;
  for (int tid = 0; tid < THREADS; ++tid)
    for (int i = 0; i < From::ELEMS; ++i)
      if (From::coord(tid, i) != To::coord(tid, i))
        return false;
  return true;
}

template <class From, class To, class T, int THREADS = 0>
__device__ inline void convert_layout(const T *in, T *out, int tid, unsigned char *smem) {
  static_assert(From::TILE_SIZE == To::TILE_SIZE, "a conversion keeps the tile's size");
  if constexpr (THREADS > 0 && same_placement<From, To, THREADS>()) {
#pragma unroll
    for (int i = 0; i < To::ELEMS; ++i)
      out[i] = in[i];
  } else {
    T *buf = reinterpret_cast<T *>(smem);
    if (From::owner(tid))
#pragma unroll
      for (int i = 0; i < From::ELEMS; ++i)
        buf[From::coord(tid, i)] = in[i];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < To::ELEMS; ++i)
      out[i] = buf[To::coord(tid, i)];
    __syncthreads();
  }
}

} // namespace tilec
