// EXPECT: error default_argument.cpp:4:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n = 4) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, 1.0f, offs < n);
}
