// smem_tile.cuh: rank-2 tiles in shared memory, laid out so that the tensor cores' operand
// reads (ldmatrix: 8 rows x 16 bytes at a time) are free of bank conflicts.
//
// SmemTile<ROWS, COLS, T>: rows longer than 128 bytes are cut into panels of 128 bytes of
// columns, stored one after the other; a panel (or a whole tile with rows of 128 bytes or
// less) is row-major, with the 16-byte chunks of each row permuted: chunk c of row r is
// stored at chunk c ^ ((r / ROWS_PER_LINE) % SPAN), where ROWS_PER_LINE rows share one
// 128-byte line and SPAN = min(chunks per row, 8). Eight consecutive rows read at the same
// logical chunk then land in eight different 16-byte bank groups (ldmatrix, cp.async).
//
// This is also the layout the Hopper tensor cores (wgmma) read through a descriptor: the
// "128B / 64B / 32B swizzle" canonical layouts, with panels as the repeats along the
// contiguous dimension, provided the tile starts at a multiple of 8 rows x PANEL_BYTES.
#pragma once

#include <tilec/device/common/constexpr_math.cuh>

namespace tilec {

template <int ROWS_, int COLS_, class T> struct SmemTile {
  static constexpr int ROWS = ROWS_, COLS = COLS_;
  static constexpr int CHUNK = 16 / int(sizeof(T)); // elements per 16-byte chunk
  static_assert(COLS % CHUNK == 0, "a shared-memory operand row must be a multiple of 16 bytes");
  // Columns per panel: 128 bytes' worth, or the whole row when it is shorter or not a
  // multiple of 128 bytes.
  static constexpr int PANEL_COLS = COLS * int(sizeof(T)) > 128 &&
                                            COLS % (128 / int(sizeof(T))) == 0
                                        ? 128 / int(sizeof(T))
                                        : COLS;
  static constexpr int PANEL_BYTES = PANEL_COLS * int(sizeof(T));
  static constexpr int CHUNKS = PANEL_COLS / CHUNK;
  // (A tile of no columns, in the sizing of an `if constexpr` branch discarded for a dimension
  // of 0, needs no line: 1 keeps the constant defined.)
  static constexpr int ROWS_PER_LINE = CHUNKS >= 8 || CHUNKS == 0 ? 1 : 8 / CHUNKS;
  static constexpr int SPAN = CHUNKS < 8 ? CHUNKS : 8;
  static constexpr int ELEMS = ROWS * COLS;
  static constexpr int BYTES = ELEMS * int(sizeof(T));

  /// Where element (r, c) lives, in elements from the tile's start.
  __device__ static constexpr int offset(int r, int c) {
    const int p = c / PANEL_COLS, pc = c % PANEL_COLS;
    return p * (ROWS * PANEL_COLS) + r * PANEL_COLS +
           (((pc / CHUNK) ^ ((r / ROWS_PER_LINE) % SPAN)) * CHUNK) + pc % CHUNK;
  }
};

/// On sm_90a: orders this thread's earlier writes to shared memory (st.shared, cp.async)
/// before later reads by the tensor cores' asynchronous proxy (wgmma); the barrier that
/// follows publishes them to the other threads. Nothing elsewhere.
__device__ inline void fence_shared_for_async_proxy() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// Writes a register tile held in layout L (Blocked2D, MmaLayout: anything with row, col and
/// runs of VEC consecutive columns) into `tile`. Copies held by several threads are written
/// by each of them, with the same value.
template <class L, class Tile, class T>
__device__ inline void store_to_smem(const T *regs, T *tile, int tid) {
  static_assert(L::ROWS == Tile::ROWS && L::COLS == Tile::COLS, "tile shapes differ");
  constexpr int RUN = L::VEC <= Tile::CHUNK ? L::VEC : Tile::CHUNK;
#pragma unroll
  for (int i = 0; i < L::ELEMS; i += RUN) {
    T *dst = tile + Tile::offset(L::row(tid, i), L::col(tid, i));
    if constexpr (RUN * sizeof(T) == 16)
      *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(&regs[i]);
    else if constexpr (RUN * sizeof(T) == 8)
      *reinterpret_cast<uint2 *>(dst) = *reinterpret_cast<const uint2 *>(&regs[i]);
    else if constexpr (RUN * sizeof(T) == 4)
      *reinterpret_cast<unsigned *>(dst) = *reinterpret_cast<const unsigned *>(&regs[i]);
    else
#pragma unroll
      for (int v = 0; v < RUN; ++v)
        dst[v] = regs[i + v];
  }
  fence_shared_for_async_proxy();
}

} // namespace tilec
