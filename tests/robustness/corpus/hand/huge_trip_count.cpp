// EXPECT: accepted
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto acc = tl::zeros<float, BLOCK>();
  for (int i = 0; i < 2000000000; ++i)
    acc = acc + 1.0f;
  tl::store(out + offs, acc, offs < n);
}
