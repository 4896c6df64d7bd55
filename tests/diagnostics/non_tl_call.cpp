// Kernels call tl:: operations and TILEC_FUNC helpers only.
#include <tilec/tl.h>

float twice(float v) { return 2 * v; }

template <int BLOCK>
TILEC_KERNEL void k(float* out, float s) {
  tl::store(out + tl::arange<0, BLOCK>(), twice(s));
  // CHECK: non_tl_call.cpp:[[@LINE-1]]:43: error: call to 'twice' is not supported in kernels (only tl:: operations and TILEC_FUNC helpers)
  // CHECK-NEXT: twice(s));
  // CHECK-NEXT: {{^ +\| +}}^~~~~~~~{{$}}
}
// CHECK: 1 error generated.
