// Loads and stores with Triton's cache modifiers (tl::cache::...) and volatile loads: each
// load modifier with a store modifier over runs of 16, 8, 4, 2 and 1 bytes (float, half and
// uint8_t, aligned or not), masked edges, a gather (one element per access) with a modifier
// after evict_last, and scalar accesses.
#include <tilec/tl.h>

template <class T, int B>
TILEC_KERNEL void cached_copy(const T *x, T *ca_wb, T *cg_cg, T *cv_cs, T *volatile_wt,
                              T *gathered, const int *flag, int *seen, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto m = offs < n;
  tl::store(ca_wb + offs, tl::load(x + offs, m, tl::cache::ca), m, tl::cache::wb);
  tl::store(cg_cg + offs, tl::load(x + offs, m, 1, tl::cache::cg), m, tl::cache::cg);
  tl::store(cv_cs + offs, tl::load(x + offs, m, tl::cache::cv), m, tl::cache::cs);
  tl::store(volatile_wt + offs, tl::load(x + offs, m, tl::is_volatile), m, tl::cache::wt);
  // Every 7th element: accesses of one element each.
  auto g = tl::load(x + offs * 7 % n, m, tl::cache::cg, tl::evict_last);
  tl::store(gathered + offs, g, m, tl::evict_last, tl::cache::wt);
  // A scalar read each time it runs, and one written by the program.
  tl::store(seen + tl::program_id(0), tl::load(flag, tl::is_volatile) + 1, tl::cache::wt);
}
