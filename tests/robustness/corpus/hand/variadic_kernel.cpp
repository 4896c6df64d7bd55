// EXPECT: error variadic_kernel.cpp:4:
#include <tilec/tl.h>
template <int... BLOCKS>
TILEC_KERNEL void k(float *out) { tl::store(out + tl::arange<0, 64>(), 1.0f); }
