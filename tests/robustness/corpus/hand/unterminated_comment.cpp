// EXPECT: error unterminated
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out) { /* never closed
