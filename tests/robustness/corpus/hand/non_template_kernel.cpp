// EXPECT: accepted
#include <tilec/tl.h>
TILEC_KERNEL void fill(float *out, int n) {
  auto offs = tl::program_id(0) * 128 + tl::arange<0, 128>();
  tl::store(out + offs, tl::full<float, 128>(2.0f), offs < n);
}
