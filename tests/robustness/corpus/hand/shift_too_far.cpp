// EXPECT: error shift_too_far.cpp:5:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(int *out) {
  auto offs = tl::arange<0, (1 << 40)>();
  tl::store(out + offs, offs);
}
