// EXPECT: error variadic_kernel.cpp:3:18: error: parameter packs are not supported in kernels
#include <tilec/tl.h>
template <int... BLOCKS>
TILEC_KERNEL void k(float *out) { tl::store(out + tl::arange<0, 64>(), 1.0f); }
