// EXPECT: accepted
#include <tilec/tl.h>
extern "C++" {
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, 1.0f, offs < n);
}
}
