// A while loop: the condition is recomputed from the carried values at the top of each
// iteration; carried variables live in mutable variables declared before the loop.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void halve_until_small(const float* x, float* out, int* steps) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs);
  int k = 0;
  while (tl::max(v) > 1.0f) {
    v = v * 0.5f;
    k += 1;
  }
  tl::store(out + offs, v);
  tl::store(steps, k);
}

// IR:      %{{[0-9]+}}:v, %{{[0-9]+}}:k = while %{{[0-9]+}}:v, %{{[0-9]+}}:k
// IR:      yield %{{[0-9]+}}
// IR:      } do {

// The loaded tile is read by nothing after the loop: the loop carries it in its own array.
// CU:      float [[V:v]][L0::ELEMS];
// CU:      int k = 0;
// CU-NEXT: while (true) {
// CU:        const float [[M:t[0-9]+]] = tilec::reduce_tile<L0>([[V]], tilec::MaxOp{}, tid, smem);
// CU:        if (!{{.*}}) break;
// CU:        [[V]][i] = {{v_[0-9]+}}[i];
// CU:        k = {{k_[0-9]+}};
// CU-NEXT: }
