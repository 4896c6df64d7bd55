// One [M, 1] tile of row indices broadcast into tiles of two layouts (the blocked tile of a
// load and the tensor cores' result): the [M, 1] tiles broadcast into the second (the store's
// pointers and mask) get copies converted through shared memory, right where they are
// computed rather than in their users.
#include <tilec/tl.h>

template <int BM, int BN, int BK>
TILEC_KERNEL void shared_rows(const tl::half *a, const tl::half *b, float *c, int m) {
  auto rows = tl::expand_dims<1>(tl::program_id(0) * BM + tl::arange<0, BM>());
  auto rk = tl::arange<0, BK>();
  auto rn = tl::arange<0, BN>();
  auto av = tl::load(a + rows * BK + tl::expand_dims<0>(rk), rows < m, 0.0f);
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
  auto acc = tl::dot(av, bv);
  tl::store(c + rows * BN + tl::expand_dims<0>(tl::arange<0, BN>()), acc, rows < m);
}

// IR:      = convert_layout %{{[0-9]+}} : tile<float*, BM, 1> #[[SLICE:[0-9]+]]
// IR:      = convert_layout %{{[0-9]+}} : tile<bool, BM, 1> #[[SLICE]]
// CU:      tilec::convert_layout<[[FROM:L[0-9]+]], [[TO:L[0-9]+]], float*, THREADS>({{t[0-9]+}}, {{t[0-9]+}}, tid, smem);
// CU:      tilec::convert_layout<[[FROM]], [[TO]], bool, THREADS>({{t[0-9]+}}, {{t[0-9]+}}, tid, smem);
