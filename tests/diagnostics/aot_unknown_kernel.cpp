// With --check, every --aot names a kernel of the input: a misspelt name would otherwise
// check nothing, silently (a build, without --check, passes each source every source's specs).
#include <tilec/tl.h>

template <int B> TILEC_KERNEL void k(float *out) { tl::store(out + tl::arange<0, B>(), 1.0f); }

// CHECK: tilec: error: --aot 'kk<256>:4': no kernel of that name in the input (its kernels are the functions marked TILEC_KERNEL)
