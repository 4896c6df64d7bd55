// layout.cuh: how a program instance's threads hold the elements of a tile.
//
// Blocked1D<SIZE, THREADS, MAX_VEC>: a rank-1 tile of SIZE elements over THREADS threads.
// Thread t holds RUNS runs of VEC consecutive elements; run r of thread t starts at tile index
// r * THREADS * VEC + t * VEC, so one pass of all threads covers THREADS * VEC consecutive
// elements (coalesced), and each run can be one vector access.
//
//   SIZE=1024, THREADS=128, MAX_VEC=4: VEC=4, RUNS=2, ELEMS=8;
//   thread 1 holds tile indices 4..7 and 516..519.
//
// When the tile has fewer elements than the threads need (SIZE < THREADS), threads beyond it
// hold copies (REPLICATED); owner(t) is false for those copies so that only one thread stores.
#pragma once

#include <tilec/device/common/constexpr_math.cuh>

namespace tilec {

template <int SIZE, int THREADS, int MAX_VEC> struct Blocked1D {
  static_assert(SIZE > 0 && (SIZE & (SIZE - 1)) == 0, "tile sizes must be powers of two");
  static_assert(THREADS > 0 && (THREADS & (THREADS - 1)) == 0, "num_warps must be a power of two");
  static_assert(MAX_VEC > 0 && (MAX_VEC & (MAX_VEC - 1)) == 0, "vector widths are powers of two");

  static constexpr int TILE_SIZE = SIZE;
  static constexpr int VEC = int(cmin(MAX_VEC, cmax(1, SIZE / THREADS)));
  static constexpr int SPAN = THREADS * VEC;
  static constexpr bool REPLICATED = SIZE < SPAN;
  static constexpr int RUNS = REPLICATED ? 1 : SIZE / SPAN;
  static constexpr int ELEMS = RUNS * VEC; // elements per thread

  /// The tile index of element i (0 <= i < ELEMS) of thread `tid`.
  __device__ static constexpr int coord(int tid, int i) {
    int c = (i / VEC) * SPAN + tid * VEC + i % VEC;
    return REPLICATED ? (c & (SIZE - 1)) : c;
  }

  /// False for threads that hold copies of elements another thread owns.
  __device__ static constexpr bool owner(int tid) { return !REPLICATED || tid * VEC < SIZE; }
};

} // namespace tilec
