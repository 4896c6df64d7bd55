// EXPECT: error huge_arange.cpp:5:.*limit
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(int *out) {
  auto offs = tl::arange<0, 1 << 30>();
  tl::store(out + offs, offs);
}
