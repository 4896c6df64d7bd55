// A static_assert kept in the generated kernel can use only what the kernel has there.
#include <tilec/tl.h>

constexpr int kLimit = 1024;

template <int BLOCK>
TILEC_KERNEL void k(float* out) {
  static_assert(BLOCK <= kLimit, "too large");
  // CHECK: static_assert_names.cpp:[[@LINE-1]]:17: error: a static_assert in a kernel may use template parameters, literals, operators and sizeof only (it is checked where the kernel is compiled for the GPU), not 'kLimit'; check the rest in host code
  tl::store(out + tl::arange<0, BLOCK>(), tl::zeros<float, BLOCK>());
}
// CHECK: 1 error generated.
