// EXPECT: error big_static_shared.cpp:[0-9]+:.*shared memory
#include <tilec/tl.h>
// A 512x512 fp32 tile reduced along rows goes through shared memory: 1 MiB, far over the
// 227 KiB a block may have.
template <int BLOCK>
TILEC_KERNEL void row_sums(const float *x, float *out) {
  auto r = tl::arange<0, 512>();
  auto t = tl::load(x + tl::expand_dims<1>(r) * 512 + tl::expand_dims<0>(r));
  tl::store(out + r, tl::sum<0>(tl::trans(t)));
}
