// -I, -D and --extra-arg reach clang: the helper comes from an -I folder, SCALE from -D and
// the warning flag from --extra-arg (the same options also arrive through -p, see
// translate.options_compdb).
#include "options_helper.h"

template <int BLOCK>
TILEC_KERNEL void scale_kernel(const float* x, float* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, scaled(tl::load(x + offs, offs < n)), offs < n);
}

// CU-LABEL: scale_kernel(const float* x, float* out, int n)
// CU: * 3.0f)
