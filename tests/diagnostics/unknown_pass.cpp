// --dump-after names one of the pipeline's passes.
#include <tilec/tl.h>

TILEC_KERNEL void k(float* out) { tl::store(out + tl::arange<0, 64>(), 1.0f); }

// CHECK: tilec: error: --dump-after: unknown pass 'bogus' (known: frontend fold-dot-adds unswitch-constexpr-ifs sink-into-branches carried-pointer-bases same-type-casts split-ragged-loops transpose-tiles unit-stride-accesses unit-stride-dot-loops axis-info transpose-loads layout {{.*}}, or all)
