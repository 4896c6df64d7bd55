// mma.cuh: tl::dot on tensor cores (mma.sync, sm_80 and newer) with operands in shared
// memory (SmemTile) and the accumulator in registers (MmaLayout).
//
// Each warp computes its MT x NT fragments of the result (MmaLayout), K_STEP columns of A at a time:
// A fragments (16 x K_STEP) are read with ldmatrix; B fragments (K_STEP x 8) with
// ldmatrix.trans for 16-bit types and element by element otherwise; then one mma per
// 16 x 8 fragment. The instruction per element type:
//   half, bfloat16  m16n8k16, float accumulators
//   float           m16n8k8 tf32 (operands rounded to tf32), or CUDA-core FMAs when exact
//                   float is asked for (DotIeee)
//   int8, uint8     m16n8k32, int32 accumulators
//   fp8 e4m3, e5m2  m16n8k32, float accumulators (sm_89 and newer; operands staged as int8's)
#pragma once

#include <tilec/device/sm80/mma_layout.cuh>
#include <tilec/device/common/smem_tile.cuh>
#include <tilec/device/common/types.cuh>

namespace tilec {

__device__ inline unsigned smem_address(const void *p) {
  return unsigned(__cvta_generic_to_shared(p));
}

/// Four 8 x 8 matrices of 16-bit elements; lane l gives the address of row l % 8 of matrix l / 8.
__device__ inline void ldmatrix_x4(unsigned (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(p)));
}
__device__ inline void ldmatrix_x4_trans(unsigned (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(p)));
}
__device__ inline void ldmatrix_x2_trans(unsigned (&r)[2], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(smem_address(p)));
}

/// One m16n8 mma: d = a * b + d.
__device__ inline void mma_atom(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                __half) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ inline void mma_atom(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                __nv_bfloat16) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ inline void mma_atom(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                float) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ inline void mma_atom(int (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                int8_t) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ inline void mma_atom(int (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                uint8_t) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#if defined(TILEC_FP8)
/// fp8 (e4m3, e5m2): m16n8k32 with float accumulators, on sm_89 and newer. A template, so
/// that the architecture check fires only where a fp8 dot is compiled for an older GPU.
template <class T>
__device__ inline typename enable_if<is_fp8_v<T>>::type
mma_atom(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2], T) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 890
  static_assert(!is_fp8_v<T>, "tilec: tl::dot of fp8 operands (tl::float8_e4m3, "
                              "tl::float8_e5m2) needs sm_89 or newer: mma.sync has no fp8 "
                              "operands before");
#else
  if constexpr (is_same_v<T, __nv_fp8_e4m3>)
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}
#endif

__device__ inline unsigned to_tf32(unsigned bits) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(bits)));
  return r;
}

/// The bits of one element, zero-extended.
template <class T> __device__ inline unsigned raw_bits(const T *p) {
  if constexpr (sizeof(T) == 1)
    return *reinterpret_cast<const unsigned char *>(p);
  else if constexpr (sizeof(T) == 2)
    return *reinterpret_cast<const unsigned short *>(p);
  else
    return *reinterpret_cast<const unsigned *>(p);
}

/// Where logical element (r, c) of an operand lives when its tile holds it as given
/// (TRANSPOSED false) or transposed (the tile is [c, r]).
template <class Tile, bool TRANSPOSED> __device__ constexpr int operand_offset(int r, int c) {
  return TRANSPOSED ? Tile::offset(c, r) : Tile::offset(r, c);
}

/// A fragment (16 x K_STEP at (m0, k0)) gathered element by element: register j holds the
/// 4 / sizeof(T) consecutive k's at k0 + (j / 2) * K_STEP / 2 + (l % 4) * (4 / sizeof(T)),
/// row m0 + l / 4 + (j % 2) * 8.
template <class Tile, bool TRANSPOSED, class T>
__device__ inline void gather_a(unsigned (&a)[4], const T *sa, int m0, int k0, int lane) {
  constexpr int PER = 4 / int(sizeof(T));
  constexpr int K_STEP = 2 * Tile::CHUNK;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    unsigned packed = 0;
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      const T *e =
          sa + operand_offset<Tile, TRANSPOSED>(m0 + lane / 4 + (j % 2) * 8,
                                                k0 + (j / 2) * (K_STEP / 2) + (lane % 4) * PER + p);
      packed |= raw_bits(e) << (8 * int(sizeof(T)) * p);
    }
    a[j] = packed;
  }
}

/// B fragment (K_STEP x 8 at (k0, n0)) gathered element by element: register j holds the
/// 4 / sizeof(T) consecutive k's at k0 + j * K_STEP / 2 + (l % 4) * (4 / sizeof(T)), column
/// n0 + l / 4.
template <class Tile, bool TRANSPOSED, class T>
__device__ inline void gather_b(unsigned (&b)[2], const T *sb, int k0, int n0, int lane) {
  constexpr int PER = 4 / int(sizeof(T));
  constexpr int K_STEP = 2 * Tile::CHUNK;
#pragma unroll
  for (int j = 0; j < 2; ++j) {
    unsigned packed = 0;
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      const T *e = sb + operand_offset<Tile, TRANSPOSED>(
                            k0 + j * (K_STEP / 2) + (lane % 4) * PER + p, n0 + lane / 4);
      packed |= raw_bits(e) << (8 * int(sizeof(T)) * p);
    }
    b[j] = packed;
  }
}

/// This warp's A (MT fragments) and B (NT fragments) for columns [k, k + K_STEP) of A. A is
/// [M, K] in its tile, or [K, M] with TRANS_A; B is [K, N], or [N, K] with TRANS_B. ldmatrix
/// reads 16-byte rows, so it serves A as given (any type), B transposed (any type), and the
/// other two orientations for 16-bit types (with .trans); the rest is gathered.
template <class L, class TileA, class TileB, class T, bool TRANS_A, bool TRANS_B> struct Fragments {
  static constexpr int CHUNK = 16 / int(sizeof(T));
  unsigned a[L::MT][4];
  unsigned b[L::NT][2];

  __device__ void load(const T *sa, const T *sb, int k, int n0, int tid) {
    const int lane = tid % 32, q = lane / 8, r8 = lane % 8;
#pragma unroll
    for (int mt = 0; mt < L::MT; ++mt) {
      const int m = L::band_row(tid, mt);
      if constexpr (!TRANS_A)
        ldmatrix_x4(a[mt], sa + TileA::offset(m + lane % 16, k + (lane / 16) * CHUNK));
      else if constexpr (sizeof(T) == 2)
        ldmatrix_x4_trans(a[mt], sa + TileA::offset(k + (q / 2) * 8 + r8, m + (q % 2) * 8));
      else
        gather_a<TileA, true>(a[mt], sa, m, k, lane);
      if constexpr (sizeof(T) == 4)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          a[mt][j] = to_tf32(a[mt][j]);
    }
    if constexpr (TRANS_B && L::NT % 2 == 0) {
#pragma unroll
      for (int nt = 0; nt < L::NT; nt += 2) {
        unsigned r[4];
        ldmatrix_x4(r, sb + TileB::offset(n0 + nt * 8 + (q / 2) * 8 + r8, k + (q % 2) * CHUNK));
        b[nt][0] = r[0], b[nt][1] = r[1], b[nt + 1][0] = r[2], b[nt + 1][1] = r[3];
      }
    } else if constexpr (!TRANS_B && sizeof(T) == 2 && L::NT % 2 == 0) {
#pragma unroll
      for (int nt = 0; nt < L::NT; nt += 2) {
        unsigned r[4];
        ldmatrix_x4_trans(r, sb + TileB::offset(k + (q % 2) * 8 + r8, n0 + nt * 8 + (q / 2) * 8));
        b[nt][0] = r[0], b[nt][1] = r[1], b[nt + 1][0] = r[2], b[nt + 1][1] = r[3];
      }
    } else if constexpr (!TRANS_B && sizeof(T) == 2) {
#pragma unroll
      for (int nt = 0; nt < L::NT; ++nt) {
        unsigned r[2];
        ldmatrix_x2_trans(r, sb + TileB::offset(k + (q % 2) * 8 + r8, n0 + nt * 8));
        b[nt][0] = r[0], b[nt][1] = r[1];
      }
    } else {
#pragma unroll
      for (int nt = 0; nt < L::NT; ++nt)
        gather_b<TileB, TRANS_B>(b[nt], sb, k, n0 + nt * 8, lane);
    }
    if constexpr (sizeof(T) == 4)
#pragma unroll
      for (int nt = 0; nt < L::NT; ++nt)
        b[nt][0] = to_tf32(b[nt][0]), b[nt][1] = to_tf32(b[nt][1]);
  }
};

/// The most K steps of one mma_block that are unrolled into straight-line code.
inline constexpr int kMaxUnrolledSteps = 8;

/// acc += A * B for this warp's block, with A and B in shared memory (see Fragments for their
/// orientations). (Reading the next K_STEP's fragments ahead by hand measured no faster: the
/// compiler already overlaps the loads of the unrolled steps, and it cost 32 registers.)
template <class L, class TileA, class TileB, bool TRANS_A, bool TRANS_B, class T, class Acc>
__device__ inline void mma_block(const T *sa, const T *sb, Acc *acc, int tid) {
  constexpr int M = TRANS_A ? TileA::COLS : TileA::ROWS, K = TRANS_A ? TileA::ROWS : TileA::COLS;
  constexpr int KB = TRANS_B ? TileB::COLS : TileB::ROWS, N = TRANS_B ? TileB::ROWS : TileB::COLS;
  static_assert(M == L::ROWS && N == L::COLS && K == KB,
                "tl::dot shapes: [M, K] x [K, N] -> [M, N]");
  constexpr int K_STEP =
      2 * (16 / int(sizeof(T))); // 16 for 16-bit types, 8 for float, 32 for 8-bit
  static_assert(K % K_STEP == 0, "tl::dot needs K to be a multiple of 16 for 16-bit types, 8 "
                                 "for float and 32 for 8-bit types");
  const int n0 = L::warp_n(tid) * L::WARP_N;
  // A long K (vLLM MLA's 512-wide q . k) fully unrolled lets ptxas issue every step's fragment
  // loads before the first mma: registers for all of them at once, then spills. Unrolled by
  // kMaxUnrolledSteps, the loads run at most that many steps ahead.
  constexpr int STEPS = K / K_STEP;
  constexpr int UNROLL = STEPS < kMaxUnrolledSteps ? STEPS : kMaxUnrolledSteps;
#pragma unroll UNROLL
  for (int step = 0; step < STEPS; ++step) {
    Fragments<L, TileA, TileB, T, TRANS_A, TRANS_B> f;
    f.load(sa, sb, step * K_STEP, n0, tid);
#pragma unroll
    for (int mt = 0; mt < L::MT; ++mt)
#pragma unroll
      for (int nt = 0; nt < L::NT; ++nt)
        mma_atom(*reinterpret_cast<Acc(*)[4]>(&acc[(mt * L::NT + nt) * 4]), f.a[mt], f.b[nt], T{});
  }
}

/// Exact float: acc += A * B with one FMA per product, each thread for its own elements.
template <class L, class TileA, class TileB, bool TRANS_A, bool TRANS_B>
__device__ inline void fma_block(const float *sa, const float *sb, float *acc, int tid) {
  constexpr int K = TRANS_A ? TileA::ROWS : TileA::COLS;
#pragma unroll 1
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int i = 0; i < L::ELEMS; ++i)
      acc[i] = fmaf(sa[operand_offset<TileA, TRANS_A>(L::row(tid, i), k)],
                    sb[operand_offset<TileB, TRANS_B>(k, L::col(tid, i))], acc[i]);
}

} // namespace tilec
