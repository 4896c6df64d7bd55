// EXPECT: error pointer_to_pointer.cpp:4:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float **out, int n) {
  tl::store(out[0] + tl::program_id(0), 1.0f);
}
