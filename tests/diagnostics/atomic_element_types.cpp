// Atomics the hardware does not have for an element type: a located error that says what to
// use instead (bitwise atomics on floats, max on half, add on int8).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* f, tl::half* h, int8_t* c) {
  auto offs = tl::arange<0, BLOCK>();
  tl::atomic_or(f + offs, 1.0f);
  // CHECK: atomic_element_types.cpp:[[@LINE-1]]:3: error: tl::atomic_or is not available for float elements (32/64-bit integers only)
  tl::atomic_max(h + offs, tl::half(1.0f));
  // CHECK: atomic_element_types.cpp:[[@LINE-1]]:3: error: tl::atomic_max is not available for tl::half elements; accumulate in float, or int32/int64
  tl::atomic_add(c + offs, 1);
  // CHECK: atomic_element_types.cpp:[[@LINE-1]]:3: error: tl::atomic_add is not available for int8_t elements; accumulate in float, or int32/int64
}
// CHECK: 3 errors generated.
