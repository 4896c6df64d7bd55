// EXPECT: accepted
#include <tilec/tl.h>
// fp8 tl::dot translates for sm_90a (the default --arch); for --arch=sm_80 it is a located
// error (robustness.rejected.fp8_dot_sm80), where it used to be accepted and then refused by
// NVRTC inside the device library.
template <int BLOCK>
TILEC_KERNEL void fp8_dot(const tl::float8_e5m2 *a, float *c) {
  auto r = tl::arange<0, 32>();
  auto x = tl::load(a + tl::expand_dims<1>(r) * 32 + tl::expand_dims<0>(r));
  tl::store(c + tl::expand_dims<1>(r) * 32 + tl::expand_dims<0>(r), tl::dot(x, x));
}
