// Cache modifiers and volatile loads (Triton's cache_modifier= and volatile=): trailing
// tl::cache::... / tl::is_volatile arguments, in any order with an eviction policy, go on the
// op (cache=cg, volatile) and become the device call's Evict and Cache template arguments;
// scalar loads and stores take them too.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void cached(const float *x, tl::half *h, float *y, const int *flag, int *seen, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto m = offs < n;
  auto a = tl::load(x + offs, m, 0.0f, tl::cache::cg);
  auto b = tl::load(x + offs, m, tl::evict_last, tl::cache::ca);
  auto c = tl::load(x + offs, tl::is_volatile);
  auto d = tl::load(h + offs, m, tl::cache::cv);
  tl::store(y + offs, a + b, m, tl::cache::cs);
  tl::store(y + offs, c, tl::cache::wt, tl::evict_last);
  tl::store(h + offs, d, m, tl::cache::wb, tl::evict_normal);
  int f = tl::load(flag, tl::is_volatile);
  tl::store(seen + tl::program_id(0), f + 1, tl::cache::cg);
}

// IR-LABEL: kernel @cached<int B>
// IR:       :a = load cache=cg %{{[0-9]+}}, %{{[0-9]+}}:m, %{{[0-9]+}} : tile<float, B>
// IR:       :b = load "evict_last" cache=ca %{{[0-9]+}}, %{{[0-9]+}}:m : tile<float, B>
// IR:       :c = load volatile %{{[0-9]+}} : tile<float, B>
// IR:       :d = load cache=cv %{{[0-9]+}}, %{{[0-9]+}}:m : tile<tl::half, B>
// IR:       store cache=cs %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}:m
// IR:       store "evict_last" cache=wt %{{[0-9]+}}, %{{[0-9]+}}:c
// IR:       store cache=wb %{{[0-9]+}}, %{{[0-9]+}}:d, %{{[0-9]+}}:m
// IR:       :f = load volatile %{{[0-9]+}}:flag : int
// IR:       store cache=cg %{{[0-9]+}}, %{{[0-9]+}}

// CU:       tilec::load_vec<a_width, a_mask_uniform, tilec::Evict::normal, tilec::Cache::cg>(&a[i], (x + offs[i]), &m[i], 0.0f);
// CU:       tilec::load_vec<b_width, b_mask_uniform, tilec::Evict::last, tilec::Cache::ca>(
// CU:       tilec::load_vec<c_width, tilec::Evict::normal, tilec::Cache::volatile_>(&c[i], (x + offs[i]));
// CU:       tilec::load_vec<d_width, d_mask_uniform, tilec::Evict::normal, tilec::Cache::cv>(
// CU:       tilec::store_vec<store_width, store_mask_uniform, tilec::Evict::normal, tilec::Cache::cs>(
// CU:       tilec::store_vec<store_width_1, tilec::Evict::last, tilec::Cache::wt>(
// CU:       tilec::store_vec<store_width_2, store_mask_uniform_1, tilec::Evict::normal, tilec::Cache::wb>(
// CU:       const int f = tilec::load_one<tilec::Evict::normal, tilec::Cache::volatile_>(flag);
// CU:       if (tid == 0) tilec::store_one<tilec::Evict::normal, tilec::Cache::cg>((seen + {{.*}}), (f + 1));
