// out = x + y, one BLOCK-element tile per program instance.
#include <tilec/tl.h>

template <int BLOCK> TILEC_KERNEL void vadd(const float *x, const float *y, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask) + tl::load(y + offs, mask), mask);
}
