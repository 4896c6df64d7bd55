// tma_map.cpp - encodes tensor maps through the driver's cuTensorMapEncodeTiled.
#include <tilec/tma_map.h>

#include "driver_api.h"
#include "stats.h"
#include "tma_map_cache.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace tilec {

namespace {

/// Columns per panel of a tile row in the device library's SmemTile: 128 bytes' worth, or the
/// whole row when it is shorter or not a multiple of 128 bytes (smem_tile.cuh).
int64_t panel_cols(int64_t cols, int elem_bytes) {
  int64_t row_bytes = cols * elem_bytes;
  return row_bytes > 128 && row_bytes % 128 == 0 ? 128 / elem_bytes : cols;
}

/// TMA's swizzle of a panel `bytes` wide: SmemTile's permutation of 16-byte chunks.
bool swizzle_of(int64_t bytes, CUtensorMapSwizzle &s) {
  switch (bytes) {
  case 16:
    s = CU_TENSOR_MAP_SWIZZLE_NONE;
    return true;
  case 32:
    s = CU_TENSOR_MAP_SWIZZLE_32B;
    return true;
  case 64:
    s = CU_TENSOR_MAP_SWIZZLE_64B;
    return true;
  case 128:
    s = CU_TENSOR_MAP_SWIZZLE_128B;
    return true;
  default:
    return false;
  }
}

bool data_type_of(int elem_bytes, CUtensorMapDataType &t) {
  switch (elem_bytes) {
  case 1:
    t = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    return true;
  case 2:
    t = CU_TENSOR_MAP_DATA_TYPE_UINT16;
    return true;
  case 4:
    t = CU_TENSOR_MAP_DATA_TYPE_UINT32;
    return true;
  case 8:
    t = CU_TENSOR_MAP_DATA_TYPE_UINT64;
    return true;
  default:
    return false;
  }
}

/// TILEC_TMA=0 in the environment: kernels copy with cp.async as on GPUs without TMA (to
/// compare the two, or to rule the copy engine out).
bool tma_turned_off() {
  static const bool off = [] {
    const char *v = std::getenv("TILEC_TMA");
    return v && std::string(v) == "0";
  }();
  return off;
}

/// The driver, when it can encode maps for the current device (else null); `where` gets the
/// current context when it is not null.
const detail::Driver *tma_driver(const detail::DeviceContext **where = nullptr) {
  if (tma_turned_off())
    return nullptr;
  const detail::Driver *d = detail::try_driver();
  if (!d || !d->api.tensor_map_encode_tiled)
    return nullptr;
  const detail::DeviceContext &current = detail::current_device_context(*d);
  if (current.cc_major < 9)
    return nullptr;
  if (where)
    *where = &current;
  return d;
}

/// Encodes [cols, rows] boxes of one matrix, or of a stack of them when `stacked`.
bool encode(TmaMap &map, const void *base, int elem_bytes, int64_t rows, int64_t cols,
            int64_t row_stride, int64_t tile_rows, int64_t tile_cols, bool stacked) {
  constexpr int64_t kMaxExtent = (int64_t(1) << 31) - 1;
  CUtensorMapDataType type;
  CUtensorMapSwizzle swizzle;
  const int64_t box_cols = panel_cols(tile_cols, elem_bytes);
  const int64_t box_rows = tile_rows < 256 ? tile_rows : 256;
  if (!data_type_of(elem_bytes, type) || !swizzle_of(box_cols * elem_bytes, swizzle) ||
      tile_rows < 1 || tile_cols < 1)
    return false;
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0 || rows < 1 || cols < 1 ||
      rows > kMaxExtent || cols > kMaxExtent || row_stride < 1 ||
      row_stride * elem_bytes % 16 != 0 || row_stride > kMaxExtent)
    return false;
  const detail::DeviceContext *where = nullptr;
  const detail::Driver *d = tma_driver(&where);
  if (!d)
    return false;
  // The maps this thread encoded lately (tma_map_cache.h): 16, more than a launch takes.
  thread_local detail::TmaMapCache<16> cache;
  const detail::TmaMapKey key{where->context, base, rows, cols, row_stride, tile_rows, tile_cols,
                              elem_bytes, stacked};
  if (const TmaMap *known = cache.find(key)) {
    map = *known;
    detail::bump(detail::counters().tma_map_reuses);
    return true;
  }
  static_assert(sizeof(CUtensorMap) == sizeof(TmaMap), "a TmaMap holds one CUtensorMap");
  // A matrix of the stack: its byte stride is a multiple of 16 below 2^40 (the map's limit).
  const int64_t matrix_bytes = rows * row_stride * elem_bytes;
  if (stacked && (matrix_bytes % 16 != 0 || matrix_bytes >= (int64_t(1) << 40)))
    return false;
  const cuuint64_t dims[3] = {cuuint64_t(cols), cuuint64_t(rows), cuuint64_t(kMaxExtent)};
  const cuuint64_t strides[2] = {cuuint64_t(row_stride * elem_bytes), cuuint64_t(matrix_bytes)};
  const cuuint32_t box[3] = {cuuint32_t(box_cols), cuuint32_t(box_rows), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  CUtensorMap encoded;
  CUresult r = d->api.tensor_map_encode_tiled(
      &encoded, type, stacked ? 3 : 2, const_cast<void *>(base), dims, strides, box,
      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return false;
  std::memcpy(map.opaque, &encoded, sizeof encoded);
  cache.insert(key, map);
  detail::bump(detail::counters().tma_maps_encoded);
  return true;
}

} // namespace

bool encode_tma_map(TmaMap &map, const void *base, int elem_bytes, int64_t rows, int64_t cols,
                    int64_t row_stride, int64_t tile_rows, int64_t tile_cols) noexcept {
  map = TmaMap{};
  try {
    return encode(map, base, elem_bytes, rows, cols, row_stride, tile_rows, tile_cols, false);
  } catch (...) { // a context that cannot be queried: copy without the map
    map = TmaMap{};
    return false;
  }
}

bool encode_stacked_tma_map(TmaMap &map, const void *base, int elem_bytes, int64_t rows,
                            int64_t cols, int64_t row_stride, int64_t tile_rows,
                            int64_t tile_cols) noexcept {
  map = TmaMap{};
  try {
    return encode(map, base, elem_bytes, rows, cols, row_stride, tile_rows, tile_cols, true);
  } catch (...) {
    map = TmaMap{};
    return false;
  }
}

bool warp_specialization_allowed() noexcept {
  static const bool allowed = [] {
    const char *v = std::getenv("TILEC_WARP_SPECIALIZE");
    return !(v && std::string(v) == "0");
  }();
  return allowed;
}

bool tma_available() noexcept {
  try {
    return tma_driver() != nullptr;
  } catch (...) {
    return false;
  }
}

} // namespace tilec
