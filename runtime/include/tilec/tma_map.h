// tilec/tma_map.h - tensor maps for the copy engine (TMA, compute capability 9.0 and newer),
// which launchers encode for the boxes a kernel copies into shared memory.
#pragma once

#include <cstdint>

namespace tilec {

/// A CUtensorMap as a launcher passes it to a kernel: 128 opaque bytes, 64-byte aligned.
struct alignas(64) TmaMap {
  unsigned long long opaque[16] = {};
};

/// Encodes `map` for copying [tile_rows, tile_cols] boxes of the row-major matrix of
/// `rows` x `cols` elements of `elem_bytes` bytes at `base`, rows `row_stride` elements apart,
/// into shared memory in the layout of the device library's SmemTile (one box per panel of
/// at most 128 bytes and 256 rows, with the swizzle of the panel's width). Elements outside
/// the matrix arrive as zeros.
///
/// Returns false, leaving `map` zeroed, when the kernel must copy without it: the current
/// device is older than compute capability 9.0 or there is none, the driver cannot encode
/// tensor maps, `base` is not 16-byte aligned, a row is not a multiple of 16 bytes, an extent
/// is below 1 or above 2^31 - 1, or the tile has no such layout; or TILEC_TMA=0 is set in the
/// environment. Never throws. Each thread remembers the last 16 maps it encoded and copies one
/// out when asked for the same again (runtime_stats().tma_map_reuses), so that launches of small
/// kernels do not wait on the driver's encoding.
bool encode_tma_map(TmaMap &map, const void *base, int elem_bytes, int64_t rows, int64_t cols,
                    int64_t row_stride, int64_t tile_rows, int64_t tile_cols) noexcept;

/// As encode_tma_map, for a stack of such matrices, each `rows * row_stride` elements after the
/// one before (attention's heads of N rows each): the map has a third dimension, the matrix,
/// as deep as a map allows (2^31 - 1), since the kernel reads it unmasked. A box's matrix
/// coordinate must not be negative. Refuses what encode_tma_map refuses, and a matrix of more
/// than 2^40 - 16 bytes or not a multiple of 16 bytes. Never throws.
bool encode_stacked_tma_map(TmaMap &map, const void *base, int elem_bytes, int64_t rows,
                            int64_t cols, int64_t row_stride, int64_t tile_rows,
                            int64_t tile_cols) noexcept;

/// Whether encode_tma_map can succeed in the current context: a GPU of compute capability 9.0
/// or newer, a driver that encodes tensor maps, and TILEC_TMA=0 not set. Never throws.
bool tma_available() noexcept;

/// Whether a warp-specialized kernel may let its producer warpgroup issue the copies (when
/// every map is encoded): true unless TILEC_WARP_SPECIALIZE=0 is set in the environment, which
/// makes such kernels copy as kernels without the producer do (to compare the two). Never
/// throws.
bool warp_specialization_allowed() noexcept;

} // namespace tilec
