// EXPECT: accepted
#include <tilec/tl.h>
// A declaration alone is not a kernel: a warning, and outputs with no launcher in them.
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n);
