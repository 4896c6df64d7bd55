// EXPECT: error empty_arange.cpp:5:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(int *out) {
  auto offs = tl::arange<0, 0>();
  tl::store(out + offs, offs);
}
