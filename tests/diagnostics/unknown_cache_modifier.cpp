// A cache modifier tl::cache does not have (PTX's .lu, a typo): clang's "no member" errors,
// then one per modifier that lists those loads and stores take.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float *x, float *y, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, tl::cache::lu);
  tl::store(y + offs, v, tl::cache::wx);
}
// CHECK: unknown_cache_modifier.cpp:8:52: error: no member named 'lu' in 'tl::cache'
// CHECK: unknown_cache_modifier.cpp:9:37: error: no member named 'wx' in 'tl::cache'
// CHECK: unknown_cache_modifier.cpp:8:52: error: 'lu' is not a cache modifier: loads take tl::cache::ca, cg or cv, stores tl::cache::wb, cg, cs or wt (Triton's cache_modifier values)
// CHECK: unknown_cache_modifier.cpp:9:37: error: 'wx' is not a cache modifier: loads take tl::cache::ca, cg or cv, stores tl::cache::wb, cg, cs or wt (Triton's cache_modifier values)
