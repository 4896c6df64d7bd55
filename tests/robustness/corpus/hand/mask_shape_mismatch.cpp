// EXPECT: error mask_shape_mismatch.cpp:7:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto small = tl::arange<0, BLOCK / 2>() < n;
  tl::store(out + offs, 1.0f, small);
}
