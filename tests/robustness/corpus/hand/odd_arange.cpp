// EXPECT: error odd_arange.cpp:5:.*power of two
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(int *out) {
  auto offs = tl::arange<0, 3>();
  tl::store(out + offs, offs);
}
