// EXPECT: accepted
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void größe(float *ausgabe, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(ausgabe + offs, 1.0f, offs < n);
}
