// EXPECT: error kernel_named_main.cpp:4:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void main(float *out) { tl::store(out + tl::program_id(0), 1.0f); }
