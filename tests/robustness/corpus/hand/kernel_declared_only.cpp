// EXPECT: error kernel_declared_only.cpp:4:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n);
