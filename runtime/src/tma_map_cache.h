// tma_map_cache.h - the tensor maps a thread encoded last, by what they describe.
//
// A launcher encodes its maps at every launch from its arguments, and from one launch to the
// next they are mostly the same tensors, shapes and boxes. The driver's encoding costs host
// time that a launch of a small kernel (a 1024^3 matmul runs 9 us) cannot hide, so a thread
// keeps the maps it encoded lately and copies one out when asked for it again. A map is a pure
// function of its key (the context stands for the device it was checked against), so an entry
// never goes stale; a freed tensor's entry is just never asked for again, or is asked for by a
// new tensor at the same address, of the same shape, which the same map describes.
#pragma once

#include <tilec/tma_map.h>

#include <cstdint>

namespace tilec::detail {

struct TmaMapKey {
  const void *context = nullptr; // the CUcontext the map was encoded in
  const void *base = nullptr;
  int64_t rows = 0, cols = 0, row_stride = 0, tile_rows = 0, tile_cols = 0;
  int elem_bytes = 0;
  bool stacked = false;
  bool operator==(const TmaMapKey &) const = default;
};

/// The last N maps encoded, each replaced in turn (round robin) when a new one comes.
template <int N> class TmaMapCache {
public:
  /// The map encoded for `key`, or null.
  const TmaMap *find(const TmaMapKey &key) const {
    for (const Entry &e : entries_)
      if (e.used && e.key == key)
        return &e.map;
    return nullptr;
  }
  void insert(const TmaMapKey &key, const TmaMap &map) {
    entries_[next_] = Entry{key, map, true};
    next_ = (next_ + 1) % N;
  }

private:
  struct Entry {
    TmaMapKey key;
    TmaMap map;
    bool used = false;
  };
  Entry entries_[N];
  int next_ = 0;
};

} // namespace tilec::detail
