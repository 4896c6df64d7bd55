// EXPECT: error recursive_kernel.cpp:6:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  tl::store(out + tl::program_id(0), 1.0f);
  if (n > 0) k<BLOCK>(out, n - 1);
}
