// EXPECT: error dot_too_small.cpp:8:31: error: tl::dot of \[8, 8\] x \[8, 8\] tl::half tiles: the tensor cores need M a multiple of 16
#include <tilec/tl.h>
// Found by the corpus: accepted, then NVRTC failed inside the device library.
template <int BLOCK>
TILEC_KERNEL void k(const tl::half *a, float *c) {
  auto r = tl::arange<0, 8>();
  auto x = tl::load(a + tl::expand_dims<1>(r) * 8 + tl::expand_dims<0>(r));
  tl::store(c + r, tl::sum<1>(tl::dot(x, x)));
}
