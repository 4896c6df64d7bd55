// Shapes that depend on template parameters are checked by the translator.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(int* out) {
  auto a = tl::arange<0, BLOCK>();
  auto b = tl::arange<0, 2 * BLOCK>();
  tl::store(out + a, a + b);
  // CHECK: shape_mismatch.cpp:[[@LINE-1]]:22: error: incompatible tile shapes [BLOCK] and [2 * BLOCK]
  tl::store(out + a, b);
  // CHECK: shape_mismatch.cpp:[[@LINE-1]]:22: error: value shape [2 * BLOCK] differs from [BLOCK]
}
// CHECK: 2 errors generated.
