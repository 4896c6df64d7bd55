// smem_tile.cuh: rank-2 tiles in shared memory, laid out so that the tensor cores' operand
// reads (ldmatrix: 8 rows x 16 bytes at a time) are free of bank conflicts.
//
// SmemTile<ROWS, COLS, T>: row-major, with the 16-byte chunks of each row permuted: chunk c
// of row r is stored at chunk c ^ ((r / ROWS_PER_LINE) % SPAN), where ROWS_PER_LINE rows share
// one 128-byte line and SPAN = min(chunks per row, 8). Eight consecutive rows read at the same
// logical chunk then land in eight different 16-byte bank groups.
#pragma once

#include <tilec/device/constexpr_math.cuh>

namespace tilec {

template <int ROWS_, int COLS_, class T> struct SmemTile {
  static constexpr int ROWS = ROWS_, COLS = COLS_;
  static constexpr int CHUNK = 16 / int(sizeof(T)); // elements per 16-byte chunk
  static_assert(COLS % CHUNK == 0, "a shared-memory operand row must be a multiple of 16 bytes");
  static constexpr int CHUNKS = COLS / CHUNK;
  static constexpr int ROWS_PER_LINE = CHUNKS >= 8 ? 1 : 8 / CHUNKS;
  static constexpr int SPAN = CHUNKS < 8 ? CHUNKS : 8;
  static constexpr int ELEMS = ROWS * COLS;
  static constexpr int BYTES = ELEMS * int(sizeof(T));

  /// Where element (r, c) lives, in elements from the tile's start.
  __device__ static constexpr int offset(int r, int c) {
    return r * COLS + (((c / CHUNK) ^ ((r / ROWS_PER_LINE) % SPAN)) * CHUNK) + c % CHUNK;
  }
};

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
}

} // namespace tilec
