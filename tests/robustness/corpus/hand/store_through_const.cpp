// EXPECT: error store_through_const.cpp:6:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(const float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, 1.0f, offs < n);
}
