// smem_transpose.cuh: an 8-bit [K, N] tile in shared memory rewritten as [N, K] (K-major),
// the only orientation the tensor cores read 8-bit operands in (wgmma has no transpose for
// them, and mma.sync's B fragment wants 4 consecutive K per register).
//
// Each thread moves 4 x 4 byte blocks: 4 words from 4 consecutive rows k (4 columns n each),
// a byte transpose in registers (prmt), and 4 words to 4 rows n (4 consecutive k each). The
// 32 lanes of a warp take 4 k-quads by 8 n-words (8 by 4 when N is not a multiple of 32), and
// lanes whose n-word has bit 1 set write their rows in the order 2, 3, 0, 1: on 128-byte
// swizzled tiles (SmemTile) one instruction's 32 reads, and its 32 writes, then fall in 16
// different banks (two-way conflicts), for 20 instructions a block. (Spreading them over all
// 32 banks takes run-time register rotations that cost more than the conflicts.)
#pragma once

#include <tilec/device/common/smem_tile.cuh>

namespace tilec {

/// The bytes `sel` (prmt's selector) picks from the 8 bytes of (lo, hi).
__device__ inline unsigned byte_perm(unsigned lo, unsigned hi, unsigned sel) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(r) : "r"(lo), "r"(hi), "r"(sel));
  return r;
}

/// dst (Dst: [N, K]) = transpose of src (Src: [K, N]), for 8-bit elements; every thread of the
/// block calls it. K a multiple of 32 and N of 16 (what 8-bit dots need anyway). Ends with
/// the fence that makes the writes visible to wgmma; the caller's barrier publishes them.
template <class Src, class Dst, int THREADS, class T>
__device__ inline void transpose_to_k_major(const T *src, T *dst, int tid) {
  static_assert(sizeof(T) == 1, "transpose_to_k_major moves bytes");
  static_assert(Src::ROWS == Dst::COLS && Src::COLS == Dst::ROWS, "tile shapes differ");
  static_assert(Src::ROWS % 32 == 0 && Src::COLS % 16 == 0,
                "an 8-bit dot operand needs K a multiple of 32 and N of 16");
  static_assert(THREADS % 32 == 0, "whole warps");
  constexpr int KQ = Src::ROWS / 4, NW = Src::COLS / 4; // 4 x 4 blocks along K and N
  constexpr int LANES_N = NW % 8 == 0 ? 8 : 4, LANES_K = 32 / LANES_N;
  constexpr int GROUPS_K = KQ / LANES_K; // 32-block groups along K
  constexpr int BLOCKS = KQ * NW;
#pragma unroll
  for (int b = tid; b < BLOCKS; b += THREADS) {
    const int g = b / 32, l = b % 32;
    const int kq = (g % GROUPS_K) * LANES_K + l % LANES_K;
    const int nw = (g / GROUPS_K) * LANES_N + l / LANES_K;
    unsigned w[4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
      w[r] = *reinterpret_cast<const unsigned *>(src + Src::offset(4 * kq + r, 4 * nw));
    // Byte transpose: column j of the block (bytes j of w[0..3]) becomes one word. The pairs
    // (t0, t2) and (t1, t3) hold columns 0, 1 and 2, 3; `late` swaps them.
    const unsigned t0 = byte_perm(w[0], w[1], 0x5140), t1 = byte_perm(w[0], w[1], 0x7362);
    const unsigned t2 = byte_perm(w[2], w[3], 0x5140), t3 = byte_perm(w[2], w[3], 0x7362);
    const bool late = (nw / 2) & 1;
    const unsigned lo0 = late ? t1 : t0, hi0 = late ? t3 : t2;
    const unsigned lo1 = late ? t0 : t1, hi1 = late ? t2 : t3;
    const unsigned out[4] = {byte_perm(lo0, hi0, 0x5410), byte_perm(lo0, hi0, 0x7632),
                             byte_perm(lo1, hi1, 0x5410), byte_perm(lo1, hi1, 0x7632)};
    const int first = late ? 2 : 0; // out[j] is column 4 nw + (j ^ first)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      *reinterpret_cast<unsigned *>(dst + Dst::offset(4 * nw + (j ^ first), 4 * kq)) = out[j];
  }
  fence_shared_for_async_proxy();
}

} // namespace tilec
