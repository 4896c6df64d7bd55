// mma_store.cuh: stores of tl::dot results (MmaLayout tiles) of 2- and 4-byte elements as
// 16-byte runs.
//
// In an MmaLayout fragment the four lanes of a quad (4k .. 4k + 3) hold one row's 8 columns as
// pairs: lane q columns 2q and 2q + 1. Stored as they are, each lane writes 4 bytes, and a
// warp's store covers 8 rows with 16 bytes each. Over four fragments side by side (32
// columns), a 4 x 4 transpose of the pairs within the quad gives lane q all 8 columns of the
// q-th fragment: one 16-byte store per lane, a quarter of the store instructions, and each row
// written 64 bytes at a time. The transpose is three shuffles; no shared memory, no barrier.
// For 4-byte elements, two lanes swap one pair over two fragments: 16 bytes each instead of 8.
#pragma once

#include <tilec/device/common/elementwise.cuh>
#include <tilec/device/common/global_access.cuh>
#include <tilec/device/sm80/mma_layout.cuh>

namespace tilec {

/// Whether a store of an `L` tile (an MmaLayout) of T can go as 16-byte runs, with the
/// addresses 16-byte aligned (`align` bytes) and consecutive (`contig` elements) and the mask
/// the same over each run (`mask_const` columns). 2-byte elements: whole groups of four
/// fragments per warp, addresses consecutive over them (32 columns: a lane finds its run from
/// the address it holds in the first). 4-byte elements: pairs of fragments, consecutive over
/// both (16 columns).
template <class L, class T>
__host__ __device__ constexpr bool quad_runs_ok(long long contig, long long align,
                                                long long mask_const) {
  if (align % 16 != 0)
    return false;
  if (sizeof(T) == 2)
    return L::NT % 4 == 0 && contig % 32 == 0 && mask_const % 8 == 0;
  if (sizeof(T) == 4)
    return L::NT % 2 == 0 && contig % 16 == 0 && mask_const % 4 == 0;
  return false;
}

/// Word j of quad lane q becomes word q of quad lane j (a 4 x 4 transpose across the quad).
__device__ inline void quad_transpose(uint32_t (&w)[4], int q) {
  uint32_t out[4] = {w[0], w[1], w[2], w[3]};
#pragma unroll
  for (int r = 1; r < 4; ++r) {
    const int partner = q ^ r;
    uint32_t send = w[0];
#pragma unroll
    for (int j = 1; j < 4; ++j)
      send = j == partner ? w[j] : send;
    // The partner sends its word for this lane (partner ^ r == q).
    const uint32_t got = __shfl_xor_sync(0xffffffffu, send, r);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      out[j] = j == partner ? got : out[j];
  }
#pragma unroll
  for (int j = 0; j < 4; ++j)
    w[j] = out[j];
}

/// Stores `vals` (the thread's elements of an `L` tile) through `ptr_at(i)` where `mask_at(i)`,
/// element i's address and mask, as 16-byte runs (quad_runs_ok must hold). Whole warps
/// return together (owners are whole warps), so the shuffles see every lane.
template <class L, Evict E = Evict::normal, Cache C = Cache::normal, class T, class PtrAt,
          class MaskAt>
__device__ inline void store_quad_runs(const T *vals, PtrAt ptr_at, MaskAt mask_at, int tid) {
  static_assert((sizeof(T) == 2 && L::NT % 4 == 0) || (sizeof(T) == 4 && L::NT % 2 == 0),
                "see quad_runs_ok");
  if (!L::owner(tid))
    return;
  const int q = tid % 4;
  if constexpr (sizeof(T) == 4) {
    // Fragments nt = 2g, 2g + 1 (i = mt * 4 NT + 8 g + 4 f + h * 2 + e): lanes q and q ^ 1
    // swap one pair, so the even lane holds columns 2q .. 2q + 3 of fragment 2g and the odd
    // lane columns 2q - 2 .. 2q + 1 of fragment 2g + 1.
    const bool odd = q % 2;
#pragma unroll
    for (int base = 0; base < L::ELEMS; base += 8) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int f0 = base + 2 * h, f1 = base + 4 + 2 * h; // this lane's pair in each
        T run[4];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const uint32_t got = __shfl_xor_sync(
              0xffffffffu, bitcast<uint32_t>(odd ? vals[f0 + e] : vals[f1 + e]), 1);
          run[e] = odd ? bitcast<T>(got) : vals[f0 + e];
          run[2 + e] = odd ? vals[f1 + e] : bitcast<T>(got);
        }
        // The odd lane's run starts 8 - 2 columns past its address in fragment 2g.
        const bool on = odd ? bool(mask_at(f1)) : bool(mask_at(f0));
        if (on)
          store_run<4, E, C>(ptr_at(f0) + (odd ? 6 : 0), run);
      }
    }
  } else {
    // Element i = mt * 4 NT + nt * 4 + h * 2 + e: fragments nt = 4g .. 4g + 3 of band mt start
    // at i = mt * 4 NT + 16 g.
#pragma unroll
    for (int base = 0; base < L::ELEMS; base += 16) {
#pragma unroll
      for (int h = 0; h < 2; ++h) { // rows g and g + 8 of the band
        uint32_t w[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const int i = base + 4 * j + 2 * h;
          w[j] = uint32_t(bitcast<uint16_t>(vals[i])) |
                 (uint32_t(bitcast<uint16_t>(vals[i + 1])) << 16);
        }
        quad_transpose(w, q);
        // This lane's run: fragment 4g + q, 8q - 2q elements past the column it held in
        // fragment 4g (the addresses are consecutive over the four fragments); its mask is
        // that of its own pair in fragment 4g + q.
        T *p = ptr_at(base + 2 * h) + 6 * q;
        bool on = false;
#pragma unroll
        for (int j = 0; j < 4; ++j)
          on = j == q ? bool(mask_at(base + 4 * j + 2 * h)) : on;
        T run[8];
        memcpy(run, w, 16);
        if (on)
          store_run<8, E, C>(p, run);
      }
    }
  }
}

} // namespace tilec
