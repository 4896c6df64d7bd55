// tl::join(a, b) adds a last axis of size 2 (a, then b), built from operations the translator
// already has: a select on the new axis' index between a and b broadcast along it. Scalars
// join into a [2] tile.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void joined(const float *x, const float *y, float *out, int n) {
  auto i = tl::program_id(0) * B + tl::arange<0, B>();
  auto j = tl::join(tl::load(x + i, i < n, 0.0f), tl::load(y + i, i < n, 0.0f));
  tl::store(out + tl::expand_dims<1>(i) * 2 + tl::expand_dims<0>(tl::arange<0, 2>()), j,
            tl::expand_dims<1>(i) < n);
  tl::store(out + 2 * n + tl::arange<0, 2>(), tl::join(1.5f, 2.5f));
}

// IR:      [[AR:%[0-9]+]] = arange [0] [2] : tile<int, 2>
// IR:      = expand_dims %{{[0-9]+}} [0] : tile<bool, 1, 2>
// IR:      %{{[0-9]+}}:j = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<float, B, 2>
// IR:      = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<float, 2>

// CU:      float j[L0::ELEMS];
// CU:      for (int i = 0; i < L0::ELEMS; ++i) {
// CU-NEXT:   // join.cpp:9: tl::join(
// CU-NEXT:   j[i] = ((L1::coord(tid, L1::from_parent(i)) == 0) ? {{t[0-9]+}}[L2::from_parent(i)] : {{t[0-9]+}}[L2::from_parent(i)]);
// CU:      = ((L3::coord(tid, i) == 0) ? 1.5f : 2.5f);
