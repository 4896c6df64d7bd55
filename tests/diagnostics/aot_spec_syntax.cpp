// --aot wants kernel<args>[:num_warps[:num_stages]].
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void add_kernel(float* out) { tl::store(out + tl::arange<0, BLOCK>(), 1.0f); }

// CHECK: tilec: error: --aot: expected 'kernel<args>' or 'kernel<args>:num_warps:num_stages', got 'add_kernel'
