// EXPECT: accepted
#include <tilec/tl.h>
// ÿþÃ not UTF-8
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, 1.0f, offs < n);
}
