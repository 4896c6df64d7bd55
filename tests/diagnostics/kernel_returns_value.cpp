// A kernel returns void.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL int k(float* out) {
  // CHECK: kernel_returns_value.cpp:[[@LINE-1]]:18: error: a TILEC_KERNEL must return void
  tl::store(out + tl::arange<0, BLOCK>(), 1.0f);
  return 1;
  // CHECK: kernel_returns_value.cpp:[[@LINE-1]]:3: error: kernels return void
}
// CHECK: 2 errors generated.
