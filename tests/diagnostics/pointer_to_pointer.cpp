// Parameters are pointers to elements, or scalars.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float** rows, float* out) {
  // CHECK: pointer_to_pointer.cpp:[[@LINE-1]]:29: error: pointers to pointers are not supported
  tl::store(out + tl::arange<0, BLOCK>(), 1.0f);
}
// CHECK: 1 error generated.
