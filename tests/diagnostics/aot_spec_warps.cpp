// num_warps is a power of two.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void add_kernel(float* out) { tl::store(out + tl::arange<0, BLOCK>(), 1.0f); }

// CHECK: tilec: error: --aot: num_warps must be a power of two from 1 to 32
