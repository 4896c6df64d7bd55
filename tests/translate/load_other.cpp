// The `other` of a masked tile load: the element type's zero by default, or a scalar
// converted to the element type.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void others(const float* f, const int* i, const tl::half* h, float* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(f + offs, mask);
  auto b = tl::load(f + offs, mask, -1.5f);
  auto c = tl::load(f + offs, mask, 2);
  auto d = tl::load(i + offs, mask, 7);
  auto e = tl::load(h + offs, mask, 1.0f);
  auto g = tl::load(f + offs, mask, tl::program_id(1));
  tl::store(out + offs, a + b + c + tl::cast<float>(d) + tl::cast<float>(e) + g, mask);
}

// IR-LABEL: kernel @others<int BLOCK>
// IR:       :a = load %{{[0-9]+}}, %{{[0-9]+}}:mask : tile<float, BLOCK>
// IR:       %[[B:[0-9]+]] = unary "-" %{{[0-9]+}} : float
// IR-NEXT:  :b = load %{{[0-9]+}}, %{{[0-9]+}}:mask, %[[B]] : tile<float, BLOCK>
// An integer literal becomes a float literal.
// IR:       %[[C:[0-9]+]] = constant [2.0f] : float
// IR-NEXT:  :c = load %{{[0-9]+}}, %{{[0-9]+}}:mask, %[[C]] : tile<float, BLOCK>
// IR:       :e = load %{{[0-9]+}}, %{{[0-9]+}}:mask, %{{[0-9]+}} : tile<tl::half, BLOCK>

// A parameter named like a name the generated code uses (`i`) is renamed consistently.
// CU:       others(const float* f, const int* [[I:i_[0-9]+]], const tl::half* h, float* out, int n) {
// CU:       tilec::load_vec<a_width, a_mask_uniform>(&a[i], (f + offs[i]), &mask[i], 0.0f);
// CU:       tilec::load_vec<b_width, b_mask_uniform>(&b[i], (f + offs[i]), &mask[i], (-1.5f));
// CU:       tilec::load_vec<c_width, c_mask_uniform>(&c[i], (f + offs[i]), &mask[i], 2.0f);
// CU:       tilec::load_vec<d_width, d_mask_uniform>(&d[i], ([[I]] + offs[i]), &mask[i], 7);
// CU:       tilec::load_vec<e_width, e_mask_uniform>(&e[i], (h + offs[i]), &mask[i], tilec::cast<tl::half>(1.0f));
// A run-time `other` is converted once.
// CU:       tilec::load_vec<g_width, g_mask_uniform>(&g[i], (f + offs[i]), &mask[i], tilec::cast<float>({{.*}}));
