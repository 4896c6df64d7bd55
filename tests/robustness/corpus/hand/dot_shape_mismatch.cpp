// EXPECT: error dot_shape_mismatch.cpp:[0-9]+:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *c) {
  auto a = tl::zeros<tl::half, 32, 64>();
  auto b = tl::zeros<tl::half, 32, 64>();
  auto acc = tl::dot(a, b);
  tl::store(c + tl::arange<0, 32>(), tl::sum<1>(acc));
}
