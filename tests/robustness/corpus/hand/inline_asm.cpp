// EXPECT: error inline_asm.cpp:5:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  asm("nop");
  tl::store(out + tl::program_id(0), 1.0f);
}
