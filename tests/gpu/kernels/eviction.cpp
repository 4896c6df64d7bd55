// Loads and stores with cache eviction hints (tl::evict_first, tl::evict_last): runs of 16, 8,
// 4 and 2 bytes (float and half, aligned or not), masked edges and a gather (no runs).
#include <tilec/tl.h>

template <class T, int B>
TILEC_KERNEL void hinted_copy(const T *x, const T *w, T *streamed, T *kept, T *gathered, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto m = offs < n;
  tl::store(streamed + offs, tl::load(x + offs, m, tl::evict_first), m, tl::evict_first);
  tl::store(kept + offs, tl::load(w + offs, m, -1.0f, tl::evict_last), m, tl::evict_last);
  // Every 7th element: accesses of one element each.
  auto g = tl::load(x + offs * 7 % n, m, tl::evict_first);
  tl::store(gathered + offs, g, m, tl::evict_last);
}
