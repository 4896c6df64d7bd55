// EXPECT: error new_in_kernel.cpp:5:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  float *tmp = new float[4];
  tl::store(out + tl::program_id(0), tmp[0]);
}
