// --arch names a GPU architecture tilec targets: sm_80 and newer.
#include <tilec/tl.h>

TILEC_KERNEL void k(float* out) { tl::store(out + tl::arange<0, 64>(), 1.0f); }

// CHECK: tilec: error: --arch: unsupported architecture 'sm_75' (tilec targets sm_80 and newer); expected one of sm_80, {{.*}}sm_90a
