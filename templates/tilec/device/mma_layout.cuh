// mma_layout.cuh: the layout of tl::dot results, as the tensor cores' mma.sync m16n8
// accumulators leave them, and the rank-1 slices of it.
//
// MmaLayout<M, N, THREADS>: an [M, N] tile split over WM x WN warps (mma_warp_split); warp
// (wm, wn) owns the WARP_M x WARP_N block at (wm * WARP_M, wn * WARP_N), made of MT x NT
// fragments of 16 x 8. In a fragment, lane l holds rows g and g + 8 (g = l / 4) at columns
// 2 * (l % 4) and 2 * (l % 4) + 1, so a thread's runs are VEC = 2 consecutive columns.
//
//   element i of thread t:  mt = i / (4 NT), nt = (i / 4) % NT, r = i % 4
//   row = wm * WARP_M + mt * 16 + g + (r / 2) * 8,   col = wn * WARP_N + nt * 8 + 2 (l % 4) + r % 2
//
// Warps beyond WM x WN (a tile too small for all of them) hold copies and are not owners.
#pragma once

#include <tilec/device/layout2d.cuh>

namespace tilec {

/// How many warps go along M and along N: split the longer side of the warp tile while a
/// warp still gets at least one 16 x 8 fragment.
struct WarpSplit {
  int m, n;
};
__host__ __device__ constexpr WarpSplit mma_warp_split(int M, int N, int warps) {
  int wm = 1, wn = 1;
  while (wm * wn < warps) {
    bool can_m = M / (wm * 2) >= 16, can_n = N / (wn * 2) >= 8;
    if (can_m && (!can_n || M / wm >= N / wn))
      wm *= 2;
    else if (can_n)
      wn *= 2;
    else
      break;
  }
  return {wm, wn};
}

template <int M, int N, int THREADS> struct MmaLayout {
  static_assert(M % 16 == 0 && N % 8 == 0,
                "a tl::dot result needs at least 16 rows and 8 columns (multiples of them)");
  static constexpr int ROWS = M, COLS = N;
  static constexpr int WARPS = THREADS / 32;
  static constexpr int WM = mma_warp_split(M, N, WARPS).m;
  static constexpr int WN = mma_warp_split(M, N, WARPS).n;
  static constexpr int WARP_M = M / WM, WARP_N = N / WN;
  static constexpr int MT = WARP_M / 16, NT = WARP_N / 8;
  static constexpr int VEC = 2;
  static constexpr int ELEMS = MT * NT * 4;

  __device__ static constexpr int warp_m(int tid) { return (tid / 32) % WM; }
  __device__ static constexpr int warp_n(int tid) { return (tid / 32) / WM % WN; }
  __device__ static constexpr int row(int tid, int i) {
    return warp_m(tid) * WARP_M + (i / (4 * NT)) * 16 + (tid % 32) / 4 + ((i % 4) / 2) * 8;
  }
  __device__ static constexpr int col(int tid, int i) {
    return warp_n(tid) * WARP_N + ((i / 4) % NT) * 8 + 2 * (tid % 4) + i % 2;
  }
  __device__ static constexpr bool owner(int tid) { return tid / 32 < WM * WN; }
};

/// Rows of an MmaLayout tile: rows g and g + 8 of each of the thread's MT fragments.
template <int M, int N, int THREADS> struct Slice<MmaLayout<M, N, THREADS>, 1> {
  using P = MmaLayout<M, N, THREADS>;
  using Parent = P;
  static constexpr int TILE_SIZE = M;
  static constexpr int VEC = 1;
  static constexpr int ELEMS = P::MT * 2;
  __device__ static constexpr int coord(int tid, int j) {
    return P::warp_m(tid) * P::WARP_M + (j / 2) * 16 + (tid % 32) / 4 + (j % 2) * 8;
  }
  __device__ static constexpr int from_parent(int i) { return (i / (4 * P::NT)) * 2 + (i % 4) / 2; }
  __device__ static constexpr bool owner(int tid) {
    return tid % 4 == 0 && P::warp_n(tid) == 0 && P::owner(tid);
  }
};

/// Columns of an MmaLayout tile: two consecutive columns of each of the thread's NT fragments.
template <int M, int N, int THREADS> struct Slice<MmaLayout<M, N, THREADS>, 0> {
  using P = MmaLayout<M, N, THREADS>;
  using Parent = P;
  static constexpr int TILE_SIZE = N;
  static constexpr int VEC = 2;
  static constexpr int ELEMS = P::NT * 2;
  __device__ static constexpr int coord(int tid, int j) {
    return P::warp_n(tid) * P::WARP_N + (j / 2) * 8 + 2 * (tid % 4) + j % 2;
  }
  __device__ static constexpr int from_parent(int i) { return ((i / 4) % P::NT) * 2 + i % 2; }
  __device__ static constexpr bool owner(int tid) {
    return (tid % 32) / 4 == 0 && P::warp_m(tid) == 0 && P::owner(tid);
  }
};

} // namespace tilec
