// EXPECT: error returns_value.cpp:4:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL int k(float *out) { return 1; }
