// smem_transpose.cuh: an 8-bit [K, N] tile in shared memory rewritten as [N, K] (K-major),
// the only orientation the tensor cores read 8-bit operands in (wgmma has no transpose for
// them, and mma.sync's B fragment wants 4 consecutive K per register).
//
// Each thread moves 4 x 4 byte blocks: 4 words from 4 consecutive rows k (4 columns n each),
// a byte transpose in registers (prmt), and 4 words to 4 rows n (4 consecutive k each). The
// 32 lanes of a warp take 8 k-quads by 4 n-words, and each lane starts its 4 reads and its 4
// writes at a different row of its block, so that on 128-byte swizzled tiles (SmemTile) one
// instruction's 32 accesses fall in 32 different banks.
#pragma once

#include <tilec/device/common/smem_tile.cuh>

namespace tilec {

/// The bytes `sel` (prmt's selector) picks from the 8 bytes of (lo, hi).
__device__ inline unsigned byte_perm(unsigned lo, unsigned hi, unsigned sel) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(r) : "r"(lo), "r"(hi), "r"(sel));
  return r;
}

/// w[(i + rot) % 4] as element i, without indexing registers at run time.
__device__ inline void rotate4(unsigned (&w)[4], int rot) {
  unsigned r[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    r[i] = rot == 0 ? w[i] : rot == 1 ? w[(i + 1) & 3] : rot == 2 ? w[(i + 2) & 3] : w[(i + 3) & 3];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    w[i] = r[i];
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
  constexpr int GROUPS_K = KQ / 8;                       // 32-block groups: 8 k-quads x 4 n-words
  constexpr int BLOCKS = KQ * NW;
#pragma unroll
  for (int b = tid; b < BLOCKS; b += THREADS) {
    const int g = b / 32, l = b % 32;
    const int kq = (g % GROUPS_K) * 8 + l % 8, nw = (g / GROUPS_K) * 4 + l / 8;
    // Reads: lane pairs (kq, kq + 2) would meet in the same banks; each starts at its own row.
    const int read_rot = (kq / 2) & 3;
    unsigned w[4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
      w[r] = *reinterpret_cast<const unsigned *>(src +
                                                 Src::offset(4 * kq + ((r + read_rot) & 3), 4 * nw));
    // w[r] holds row 4 kq + (r + read_rot) % 4: back in row order.
    rotate4(w, (4 - read_rot) & 3);
    // Byte transpose: out[j] = byte j of w[0..3], column 4 nw + j at rows 4 kq .. 4 kq + 3.
    const unsigned t0 = byte_perm(w[0], w[1], 0x5140), t1 = byte_perm(w[0], w[1], 0x7362);
    const unsigned t2 = byte_perm(w[2], w[3], 0x5140), t3 = byte_perm(w[2], w[3], 0x7362);
    unsigned out[4] = {byte_perm(t0, t2, 0x5410), byte_perm(t0, t2, 0x7632),
                       byte_perm(t1, t3, 0x5410), byte_perm(t1, t3, 0x7632)};
    // Writes: rows 4 nw + j; lanes with n-words 2 and 3 start two rows later.
    const int write_rot = 2 * ((nw / 2) & 1);
    rotate4(out, write_rot);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      *reinterpret_cast<unsigned *>(dst + Dst::offset(4 * nw + ((j + write_rot) & 3), 4 * kq)) =
          out[j];
  }
  fence_shared_for_async_proxy();
}

} // namespace tilec
