// --arch spells an architecture as NVRTC does (sm_90a), with the known ones listed otherwise.
#include <tilec/tl.h>

TILEC_KERNEL void k(float* out) { tl::store(out + tl::arange<0, 64>(), 1.0f); }

// CHECK: tilec: error: --arch: unknown architecture 'hopper'; expected one of sm_80, {{.*}}sm_90a
