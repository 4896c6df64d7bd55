// EXPECT: error runtime_arange.cpp:5:.*compile-time constant
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(int *out, int n) {
  auto offs = tl::arange<0, n>();
  tl::store(out + offs, offs);
}
