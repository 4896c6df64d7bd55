// Elementwise tile values computed in a row over one layout share one loop over the elements
// (codegen/EmitElementwise.cpp): an online softmax step, m and z carried. A scalar between
// them is written before that loop; a load, or a value of another layout, starts a new one.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void online_step(const float *x, float *out_m, float *out_z, float *out_r, int n,
                              float scale) {
  auto offs = tl::arange<0, BLOCK>();
  auto m = tl::full<float, BLOCK>(-INFINITY);
  auto z = tl::zeros<float, BLOCK>();
  for (int start = 0; start < n; start += BLOCK) {
    auto inp = tl::load(x + start + offs, start + offs < n, -INFINITY);
    auto m_new = tl::maximum(m, inp);
    float half = scale * 0.5f;
    auto z_new = z * tl::exp(m - m_new) + tl::exp(inp - m_new) * half;
    z = z_new;
    m = m_new;
  }
  tl::store(out_m + offs, m);
  tl::store(out_z + offs, z);
  auto rows = tl::expand_dims<1>(offs);
  auto r = rows * 2 + tl::expand_dims<0>(tl::arange<0, 2>());
  tl::store(out_r + r, tl::cast<float>(r) + 1.0f);
}

// The initial values and the offsets share one loop. In the loop without masks: the load,
// then the scalar `half` before the loop of the tile values around it, then that loop.
// CU-LABEL: online_step(
// CU:       int offs[[[L:L[0-9]+]]::ELEMS];
// CU-NEXT:  float m[[[L]]::ELEMS];
// CU-NEXT:  float z[[[L]]::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:  for (int i = 0; i < [[L]]::ELEMS; ++i) {
// CU:           offs[i] = [[L]]::coord(tid, i);
// CU:           m[i] = (-tilec::infinity<float>());
// CU:           z[i] = 0.0f;
// CU-NEXT:  }
// CU:       for (int start = 0; start < start_unmasked_end; start += BLOCK) {
// CU:           tilec::load_vec<inp_width>(&inp[i], ((x + start) + offs[i]));
// CU-NEXT:    // elementwise_loops.cpp:15: scale * 0.5f
// CU-NEXT:    const float half = (scale * 0.5f);
// CU:         float m_new[[[L]]::ELEMS];
// CU-NEXT:    float z_new[[[L]]::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:    for (int i = 0; i < [[L]]::ELEMS; ++i) {
// CU-NEXT:      // elementwise_loops.cpp:14: tl::maximum(m, inp)
// CU-NEXT:      m_new[i] = tilec::maximum(m[i], inp[i]);
// CU-NEXT:      // elementwise_loops.cpp:16: z * tl::exp(m - m_new) + tl::exp(inp - m_new) * half
// CU-NEXT:      z_new[i] = ((z[i] * tilec::exp((m[i] - m_new[i]))) + (tilec::exp((inp[i] - m_new[i])) * half));
// CU-NEXT:    }
// `rows` keeps the layout of `offs`; the rank-2 values that follow are of another one, and
// share a loop of their own.
// CU:       for (int i = 0; i < [[L]]::ELEMS; ++i) rows[i] = offs[i];
// CU-NEXT:  int r[[[L2:L[0-9]+]]::ELEMS];
// CU-NEXT:  float [[F:t[0-9]+]][[[L2]]::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:  for (int i = 0; i < [[L2]]::ELEMS; ++i) {
// CU:           r[i] = ((rows[[[L]]::from_parent(i)] * 2) +
// CU:           [[F]][i] = (tilec::cast<float>(r[i]) + 1.0f);
// CU-NEXT:  }

// A loaded tile converted to float keeps a loop of its own (in one loop with its users, the
// layer norm example's forward needed 8-16 more registers).
template <int BLOCK>
TILEC_KERNEL void widened(const tl::half *x, float *out, float *out2) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::cast<float>(tl::load(x + offs));
  auto y = v * 2.0f;
  auto z = y + v;
  tl::store(out + offs, y * z);
  tl::store(out2 + offs, z);
}

// CU-LABEL: widened(
// CU:       float v[[[W:L[0-9]+]]::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:  for (int i = 0; i < [[W]]::ELEMS; ++i) v[i] = tilec::cast<float>(
// CU-NEXT:  float y[[[W]]::ELEMS];
// CU-NEXT:  float z[[[W]]::ELEMS];
// CU-NEXT:  float {{t[0-9]+}}[[[W]]::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:  for (int i = 0; i < [[W]]::ELEMS; ++i) {
