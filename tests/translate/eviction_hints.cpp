// Cache eviction hints: a tile load or store ending in tl::evict_first / tl::evict_last (or
// tl::eviction::...) carries it on the op, and the access names the policy; evict_normal is
// the same as no hint.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void hinted(const float *x, const tl::half *w, float *y, tl::half *z, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto v = tl::load(x + offs, offs < n, 0.0f, tl::evict_first);
  auto k = tl::load(w + tl::arange<0, B>(), tl::evict_last);
  tl::store(y + offs, v * 2.0f, offs < n, tl::evict_first);
  tl::store(z + offs, k, offs < n, tl::eviction::last);
  tl::store(y + offs, v, tl::evict_normal);
}

// IR:      %{{[0-9]+}}:v = load "evict_first" %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<float, B>
// IR:      %{{[0-9]+}}:k = load "evict_last" %{{[0-9]+}} : tile<tl::half, B>
// IR:      store "evict_first" %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
// IR:      store "evict_last" %{{[0-9]+}}, %{{[0-9]+}}:k, %{{[0-9]+}}
// IR:      store %{{[0-9]+}}, %{{[0-9]+}}:v
// CU:      tilec::load_vec<v_width, v_mask_uniform, tilec::Evict::first>(&v[i], (x + offs[i]), &{{t[0-9]+}}[i], 0.0f);
// CU:      tilec::load_vec<k_width, tilec::Evict::last>(&k[i], (w + L0::coord(tid, i)));
// CU:      tilec::store_vec<store_width, store_mask_uniform, tilec::Evict::first>(
// CU:      tilec::store_vec<store_width_1, store_mask_uniform_1, tilec::Evict::last>(
// CU:      tilec::store_vec<store_width_2>((y + offs[i]), &v[i], L0::owner(tid));
