// EXPECT: accepted
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(const double *x, double *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n);
  tl::store(out + offs, tl::exp(v) + v * 2.0, offs < n);
}
