// mma_layout.cuh: the layout of tl::dot results, as the tensor cores leave the accumulators
// (mma.sync m16n8 fragments; wgmma m64nN, which holds the same fragments), and its rank-1
// slices.
//
// MmaLayout<M, N, THREADS>: an [M, N] tile split over WM x WN warps; warp (wm, wn) owns
// columns wn * WARP_N .. + WARP_N and MT = M / (16 WM) bands of 16 rows, band mt starting at
// row mt * 16 WM + wm * 16 (so four consecutive warps cover 64 consecutive rows, as a wgmma
// warpgroup does). A band is NT = WARP_N / 8 fragments of 16 x 8. In a fragment, lane l holds
// rows g and g + 8 (g = l / 4) at columns 2 * (l % 4) and 2 * (l % 4) + 1, so a thread's runs
// are VEC = 2 consecutive columns.
//
//   element i of thread t:  mt = i / (4 NT), nt = (i / 4) % NT, r = i % 4
//   row = mt * 16 WM + wm * 16 + g + (r / 2) * 8,   col = wn * WARP_N + nt * 8 + 2 (l % 4) + r % 2
//
// The split: on sm_90a, whole warpgroups (4 warps along M) when the tile allows it, for wgmma;
// elsewhere the longer side of the warp tile is halved while a warp keeps a 16 x 8 fragment.
// Warps beyond WM x WN (a tile too small for all of them) hold copies and are not owners.
#pragma once

#include <tilec/device/common/layout2d.cuh>

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

/// Warpgroups for wgmma: groups of 4 warps along M, each over 64 rows at a time; the groups
/// split M or N as mma_warp_split does. {0, 0} when the tile cannot be shared that way.
__host__ __device__ constexpr WarpSplit wgmma_warp_split(int M, int N, int warps) {
  if (warps % 4 != 0 || M % 64 != 0 || N % 8 != 0)
    return {0, 0};
  int gm = 1, gn = 1;
  while (gm * gn < warps / 4) {
    bool can_m = M % (gm * 2 * 64) == 0, can_n = N % (gn * 2 * 8) == 0;
    if (can_m && (!can_n || M / gm >= N / gn))
      gm *= 2;
    else if (can_n)
      gn *= 2;
    else
      break;
  }
  return {4 * gm, gn};
}

__host__ __device__ constexpr WarpSplit dot_warp_split(int M, int N, int warps) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (wgmma_warp_split(M, N, warps).m != 0)
    return wgmma_warp_split(M, N, warps);
#endif
  return mma_warp_split(M, N, warps);
}

template <int M, int N, int THREADS> struct MmaLayout {
  static_assert(M % 16 == 0 && N % 8 == 0,
                "a tl::dot result needs at least 16 rows and 8 columns (multiples of them)");
  static constexpr int ROWS = M, COLS = N;
  static constexpr int WARPS = THREADS / 32;
  static constexpr int WM = dot_warp_split(M, N, WARPS).m;
  static constexpr int WN = dot_warp_split(M, N, WARPS).n;
  static constexpr int WARP_M = M / WM, WARP_N = N / WN;
  static constexpr int MT = WARP_M / 16, NT = WARP_N / 8;
  static constexpr int VEC = 2;
  static constexpr int ELEMS = MT * NT * 4;

  __device__ static constexpr int warp_m(int tid) { return (tid / 32) % WM; }
  __device__ static constexpr int warp_n(int tid) { return (tid / 32) / WM % WN; }
  /// First row of band mt of this thread's warp.
  __device__ static constexpr int band_row(int tid, int mt) {
    return mt * 16 * WM + warp_m(tid) * 16;
  }
  __device__ static constexpr int row(int tid, int i) {
    return band_row(tid, i / (4 * NT)) + (tid % 32) / 4 + ((i % 4) / 2) * 8;
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
    return P::band_row(tid, j / 2) + (tid % 32) / 4 + (j % 2) * 8;
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
