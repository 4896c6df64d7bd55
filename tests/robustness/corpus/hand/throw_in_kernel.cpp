// EXPECT: error throw_in_kernel.cpp:6:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  if (n < 0) throw 1;
  tl::store(out + offs, 1.0f, offs < n);
}
