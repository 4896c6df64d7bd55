// --aot's template arguments match the kernel's template parameters.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void add_kernel(float* out) { tl::store(out + tl::arange<0, BLOCK>(), 1.0f); }

// CHECK: tilec: error: --aot 'add_kernel<256,4>': add_kernel takes 1 template argument{{$}}
