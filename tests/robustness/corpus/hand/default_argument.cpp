// EXPECT: accepted
#include <tilec/tl.h>
// A default argument is allowed and ignored: the launcher takes every argument.
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n = 4) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, 1.0f, offs < n);
}
