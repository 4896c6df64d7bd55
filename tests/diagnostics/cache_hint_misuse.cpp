// Cache hints a load or store does not take, that PTX cannot combine, or given to another
// operation: located errors that say what to write instead.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float *x, float *y, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto m = offs < n;
  auto a = tl::load(x + offs, m, tl::cache::wb);
  // CHECK: cache_hint_misuse.cpp:[[@LINE-1]]:34: error: tl::cache::wb is a store's cache modifier; tl::load takes tl::cache::ca, tl::cache::cg or tl::cache::cv (Triton's ".ca", ".cg", ".cv")
  tl::store(y + offs, tl::load(x + offs), m, tl::cache::cv);
  // CHECK: cache_hint_misuse.cpp:[[@LINE-1]]:46: error: tl::cache::cv is a load's cache modifier; tl::store takes tl::cache::wb, tl::cache::cg, tl::cache::cs or tl::cache::wt (Triton's ".wb", ".cg", ".cs", ".wt")
  tl::store(y + offs, tl::load(x + offs), tl::is_volatile);
  // CHECK: cache_hint_misuse.cpp:[[@LINE-1]]:43: error: tl::is_volatile applies to loads (Triton's tl.store has no volatile); to publish a value that other programs poll, store it with tl::atomic_xchg(p, v, tl::sem::release)
  auto b = tl::load(x + offs, tl::is_volatile, tl::cache::cg);
  // CHECK: cache_hint_misuse.cpp:[[@LINE-1]]:48: error: a volatile load takes no cache modifier or eviction policy (PTX's ld.volatile has none); drop tl::cache::cg
  auto c = tl::load(x + offs, m, tl::evict_first, tl::cache::cg);
  // CHECK: cache_hint_misuse.cpp:[[@LINE-1]]:34: error: tl::evict_first is itself a cache operator (PTX's .cs) and does not combine with tl::cache::cg; keep one of them (tl::evict_last combines with it)
  auto d = tl::load(x + offs, tl::cache::ca, tl::cache::cg);
  // CHECK: cache_hint_misuse.cpp:[[@LINE-1]]:31: error: tl::load takes one cache modifier, not both tl::cache::ca and tl::cache::cg; keep one
  tl::atomic_add(y + offs, 1.0f, m, tl::cache::cg);
  // CHECK: cache_hint_misuse.cpp:[[@LINE-1]]:37: error: tl::cache::cg is a cache hint of tl::load and tl::store; tl::atomic_add takes none
}
// CHECK: 7 errors generated.
