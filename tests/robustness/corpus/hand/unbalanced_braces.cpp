// EXPECT: error error:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out) {
  if (true) {
    tl::store(out + tl::arange<0, BLOCK>(), 1.0f);
}
