// EXPECT: error dot_int8_k16.cpp:9:[0-9]+: error: tl::dot of \[32, 16\] x \[16, 32\] int8_t tiles: .*K a multiple of 32
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(const int8_t *a, int *c) {
  auto r = tl::arange<0, 32>();
  auto k = tl::arange<0, 16>();
  auto x = tl::load(a + tl::expand_dims<1>(r) * 16 + tl::expand_dims<0>(k));
  auto y = tl::load(a + tl::expand_dims<1>(k) * 32 + tl::expand_dims<0>(r));
  auto z = tl::dot(x, y);
  tl::store(c + tl::expand_dims<1>(r) * 32 + tl::expand_dims<0>(r), z);
}
