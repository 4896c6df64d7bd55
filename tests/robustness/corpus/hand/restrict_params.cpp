// EXPECT: accepted
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(const float *__restrict__ x, float *__restrict__ out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}
