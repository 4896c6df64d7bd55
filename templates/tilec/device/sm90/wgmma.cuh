// wgmma.cuh: tl::dot on Hopper's warpgroup tensor cores (wgmma, sm_90a) for 16-bit and 8-bit
// operands in shared memory (8-bit ones K-major: the tensor cores do not transpose them).
//
// A warpgroup (4 consecutive warps) multiplies a 64 x 16 slice of A by a 16 x N slice of B
// in one asynchronous instruction that reads both straight from shared memory, described by
// a 64-bit descriptor: start address, the swizzle mode (the SmemTile panel width: 128, 64 or
// 32 bytes), and two strides, between 8-row groups (SBO) and, for operands whose M or N index
// is the contiguous one, between panels (LBO). The accumulators land in the same registers
// as mma.sync's m16n8 fragments, so MmaLayout serves both.
//
// The instructions of one dot are committed as one group and waited for before returning, so
// the caller may overwrite the operands right after. (Leaving them running into the next
// iteration of a pipelined loop measured no faster: bench/NOTES.md, matmul version 7.)
#pragma once

#include <tilec/device/sm80/mma_layout.cuh>
#include <tilec/device/common/smem_tile.cuh>
#include <tilec/device/sm90/wgmma_ops.cuh>

namespace tilec {

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

/// The wgmma shared-memory descriptor of an operand that starts at `p`.
template <class Tile, bool MN_MAJOR> __device__ inline uint64_t wgmma_descriptor(const void *p) {
  constexpr int SWIZZLE = Tile::PANEL_BYTES == 128 ? 1 : Tile::PANEL_BYTES == 64 ? 2 : 3;
  constexpr unsigned SBO = 8 * Tile::PANEL_BYTES;                    // next 8 rows
  constexpr unsigned LBO = MN_MAJOR ? Tile::ROWS * Tile::PANEL_BYTES // next panel
                                    : 16;                            // unused (K within a panel)
  const unsigned addr = unsigned(__cvta_generic_to_shared(p));
  return uint64_t((addr & 0x3FFFF) >> 4) | uint64_t((LBO >> 4) & 0x3FFF) << 16 |
         uint64_t((SBO >> 4) & 0x3FFF) << 32 | uint64_t(SWIZZLE) << 62;
}

/// The descriptor of an operand `bytes` further on than the one `desc` describes: the start
/// address field (bits 0-13, in 16-byte units) moves; the offsets a dot takes (k-steps of 32
/// bytes, rows and panels) are multiples of 16 bytes and stay inside shared memory (below
/// 2^18 bytes), so the add never carries out of the field. One add per instruction instead
/// of rebuilding every field from the address (measured: ~10 uniform instructions per wgmma).
__device__ inline uint64_t wgmma_descriptor_at(uint64_t desc, int bytes) {
  return desc + uint64_t(unsigned(bytes) >> 4);
}

/// Keeps the compiler from moving reads or writes of an accumulator across the asynchronous
/// instructions (which it cannot see writing it).
__device__ inline void pin_accumulator(float &x) { asm volatile("" : "+f"(x)::"memory"); }
__device__ inline void pin_accumulator(int &x) { asm volatile("" : "+r"(x)::"memory"); }

/// One wgmma over K_STEP columns of A: m64k16 for 16-bit operands (either may be MN-major),
/// m64k32 for 8-bit ones (both K-major). SCALE_D = false: d = A * B, d not read.
template <bool MN_MAJOR_A, bool MN_MAJOR_B, bool SCALE_D = true, class Acc, int N, class T>
__device__ inline void wgmma_step(Acc (&d)[N], uint64_t desc_a, uint64_t desc_b, T tag) {
  if constexpr (sizeof(T) == 1)
    wgmma_m64k32<SCALE_D>(d, desc_a, desc_b, tag);
  else
    wgmma_m64k16<MN_MAJOR_A, MN_MAJOR_B, SCALE_D>(d, desc_a, desc_b, tag);
}

#endif

/// Whether dot_smem can take the wgmma path for this layout and these operand tiles. A is
/// [M, K] in TileA ([K, M] with TRANS_A); B is [K, N] ([N, K] with TRANS_B).
template <class L, class TileA, class TileB, bool TRANS_A, bool TRANS_B, class T, class Acc>
__host__ __device__ constexpr bool wgmma_fits() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // 16-bit operands with float accumulators, either operand K- or MN-major; 8-bit ones
  // (int8/uint8 into int32, fp8 into float) only with both K-major: A as [M, K], B as [N, K].
  constexpr bool types_ok =
      (sizeof(T) == 2 && is_same_v<Acc, float>) ||
      (sizeof(T) == 1 && !TRANS_A && TRANS_B &&
       (is_same_v<T, int8_t> || is_same_v<T, uint8_t> ? is_same_v<Acc, int> : is_same_v<Acc, float>));
  if constexpr (!types_ok)
    return false;
  else {
    constexpr int W = L::WARP_N;
    constexpr bool width_ok = W == 8 || W == 16 || W == 32 || W == 64 || W == 128 || W == 256;
    constexpr bool panels_ok =
        (TileA::PANEL_BYTES == 32 || TileA::PANEL_BYTES == 64 || TileA::PANEL_BYTES == 128) &&
        (TileB::PANEL_BYTES == 32 || TileB::PANEL_BYTES == 64 || TileB::PANEL_BYTES == 128);
    // An operand whose M or N index is contiguous must start each warpgroup's slice at a panel.
    constexpr bool a_starts_ok = !TRANS_A || 64 % TileA::PANEL_COLS == 0;
    constexpr bool b_starts_ok = TRANS_B || L::WN == 1 || W % TileB::PANEL_COLS == 0;
    return L::WM % 4 == 0 && width_ok && panels_ok && a_starts_ok && b_starts_ok;
  }
#else
  return false;
#endif
}

/// Whether wgmma_block_rs can take A from registers in layout LA: the wgmma path fits with
/// A staged, and LA splits the rows over warps exactly as the result's layout L does, each
/// warp holding whole rows of A.
template <class L, class LA, class TileB, bool TRANS_B, class T, class Acc>
__host__ __device__ constexpr bool wgmma_regs_a_fits() {
  using TileA = SmemTile<LA::ROWS, LA::COLS, T>;
  if constexpr (!wgmma_fits<L, TileA, TileB, false, TRANS_B, T, Acc>())
    return false;
  else
    return LA::WM == L::WM && LA::WN == 1 && LA::MT == L::MT && LA::COLS % 16 == 0;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

/// acc += A * B for this warpgroup's bands with wgmma (see wgmma_fits for the shapes).
/// WAIT = false: the wgmmas stay in flight (see dot_wait). ZERO: acc = A * B, acc not read
/// (each band's first step does not add; the accumulators need no zeros written first).
template <class L, class TileA, class TileB, bool TRANS_A, bool TRANS_B, bool WAIT = true,
          bool ZERO = false, class T, class Acc>
__device__ inline void wgmma_block(const T *sa, const T *sb, Acc *acc, int tid) {
  constexpr int K = TRANS_A ? TileA::ROWS : TileA::COLS;
  constexpr int K_STEP = 32 / int(sizeof(T)); // 32 bytes of K per instruction
  constexpr int BAND = 4 * L::NT; // accumulators per band of 16 rows: one wgmma's worth
  // The warp's index, read from lane 0 so that the compiler sees it is the same across the
  // warp and keeps the descriptors in uniform registers (two-warpgroup tiles ran ~20% faster).
  const int warp_tid = __shfl_sync(0xffffffffu, tid / 32, 0) * 32;
  const int n0 = L::warp_n(warp_tid) * L::WARP_N;
  const int group_row = (L::warp_m(warp_tid) / 4) * 64; // this warpgroup's first row in a band
  const uint64_t desc_a = wgmma_descriptor<TileA, TRANS_A>(sa);
  const uint64_t desc_b = wgmma_descriptor<TileB, !TRANS_B>(sb);
#pragma unroll
  for (int i = 0; i < L::ELEMS; ++i)
    pin_accumulator(acc[i]);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int mt = 0; mt < L::MT; ++mt) {
    const int m0 = mt * 16 * L::WM + group_row;
#pragma unroll
    for (int k = 0; k < K; k += K_STEP) {
      const int a = TRANS_A ? TileA::offset(k, m0) : TileA::offset(m0, k);
      const int b = TRANS_B ? TileB::offset(n0, k) : TileB::offset(k, n0);
      Acc(&d)[BAND] = *reinterpret_cast<Acc(*)[BAND]>(&acc[mt * BAND]);
      const uint64_t da = wgmma_descriptor_at(desc_a, a * int(sizeof(T)));
      const uint64_t db = wgmma_descriptor_at(desc_b, b * int(sizeof(T)));
      if (ZERO && k == 0) // unrolled: decided at compile time
        wgmma_step<TRANS_A, !TRANS_B, false>(d, da, db, T{});
      else
        wgmma_step<TRANS_A, !TRANS_B>(d, da, db, T{});
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  if constexpr (WAIT) {
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
    for (int i = 0; i < L::ELEMS; ++i)
      pin_accumulator(acc[i]);
  }
}

/// Two 16-bit elements as one 32-bit register, the first in the low half.
template <class T> __device__ inline unsigned pack_pair(const T &lo, const T &hi) {
  return unsigned(*reinterpret_cast<const unsigned short *>(&lo)) |
         unsigned(*reinterpret_cast<const unsigned short *>(&hi)) << 16;
}

/// acc += A * B with A held in registers in the mma layout LA (a [M, K] tile, each warp
/// holding all K columns of its rows) and B in shared memory: each 16-column slice of A is
/// already the m64k16 register fragment of the warpgroup's rows (the rows and columns an
/// mma accumulator pair holds are the ones the A fragment wants), so nothing goes through
/// shared memory. See wgmma_regs_a_fits for the shapes. WAIT and ZERO as for wgmma_block.
template <class L, class LA, class TileB, bool TRANS_B, bool WAIT = true, bool ZERO = false,
          class T>
__device__ inline void wgmma_block_rs(const T *a, const T *sb, float *acc, int tid) {
  constexpr int BAND = 4 * L::NT;
  const int warp_tid = __shfl_sync(0xffffffffu, tid / 32, 0) * 32;
  const int n0 = L::warp_n(warp_tid) * L::WARP_N;
  // Every slice's fragment is packed before the fence: registers written after it would make
  // the compiler fence again before each instruction.
  constexpr int SLICES = LA::COLS / 16;
  unsigned regs[L::MT][SLICES][4];
#pragma unroll
  for (int mt = 0; mt < L::MT; ++mt)
#pragma unroll
    for (int s = 0; s < SLICES; ++s) {
      const int f0 = (mt * LA::NT + 2 * s) * 4, f1 = f0 + 4; // the slice's two 16 x 8 fragments
      regs[mt][s][0] = pack_pair(a[f0], a[f0 + 1]);
      regs[mt][s][1] = pack_pair(a[f0 + 2], a[f0 + 3]);
      regs[mt][s][2] = pack_pair(a[f1], a[f1 + 1]);
      regs[mt][s][3] = pack_pair(a[f1 + 2], a[f1 + 3]);
    }
#pragma unroll
  for (int i = 0; i < L::ELEMS; ++i)
    pin_accumulator(acc[i]);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  const uint64_t desc_b = wgmma_descriptor<TileB, !TRANS_B>(sb);
#pragma unroll
  for (int mt = 0; mt < L::MT; ++mt) {
#pragma unroll
    for (int s = 0; s < SLICES; ++s) {
      const int b = TRANS_B ? TileB::offset(n0, 16 * s) : TileB::offset(16 * s, n0);
      float(&d)[BAND] = *reinterpret_cast<float(*)[BAND]>(&acc[mt * BAND]);
      const uint64_t db = wgmma_descriptor_at(desc_b, b * int(sizeof(T)));
      if (ZERO && s == 0) // unrolled: decided at compile time
        wgmma_m64k16_rs<!TRANS_B, false>(d, regs[mt][s], db, T{});
      else
        wgmma_m64k16_rs<!TRANS_B>(d, regs[mt][s], db, T{});
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  if constexpr (WAIT) {
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
    for (int i = 0; i < L::ELEMS; ++i)
      pin_accumulator(acc[i]);
  }
}

#endif

} // namespace tilec
