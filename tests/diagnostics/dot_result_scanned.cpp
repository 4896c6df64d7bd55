// Scans, trans and reshape of a tl::dot result (held in the tensor cores' layout) are not
// translated yet (reductions are): the error points at the operation.
#include <tilec/tl.h>

template <int M, int N, int K>
TILEC_KERNEL void k(const tl::half *a, const tl::half *b, float *out) {
  auto x = tl::load(a + tl::expand_dims<1>(tl::arange<0, M>()) * K + tl::expand_dims<0>(tl::arange<0, K>()));
  auto y = tl::load(b + tl::expand_dims<1>(tl::arange<0, K>()) * N + tl::expand_dims<0>(tl::arange<0, N>()));
  auto r = tl::dot(x, y);
  auto s = tl::cumsum<1>(r);
  // CHECK: dot_result_scanned.cpp:[[@LINE-1]]:12: error: this operation on a tl::dot result (or a tile computed from one) is not translated yet: scans, trans and reshape need a blocked tile
  tl::store(out + tl::arange<0, M>(), tl::max<1>(s));
}
