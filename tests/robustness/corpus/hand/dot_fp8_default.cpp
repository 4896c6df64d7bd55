// EXPECT: accepted
#include <tilec/tl.h>
// Found by the corpus: --check compiled int parameters at 16, where an 8-bit tl::dot (K a
// multiple of 32) cannot be; kernels left to the fallback now also get a try at 64.
template <int BM, int BN, int BK>
TILEC_KERNEL void fp8_tile(const tl::float8_e4m3 *a, const tl::float8_e4m3 *b, float *c) {
  auto rm = tl::arange<0, BM>(), rn = tl::arange<0, BN>(), rk = tl::arange<0, BK>();
  auto x = tl::load(a + tl::expand_dims<1>(rm) * BK + tl::expand_dims<0>(rk));
  auto y = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), tl::dot(x, y));
}
