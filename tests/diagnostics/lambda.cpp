// Lambdas are not part of the kernel language (combine functions are TILEC_FUNC helpers).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out) {
  auto twice = [](float v) { return 2 * v; };
  // CHECK: lambda.cpp:[[@LINE-1]]:16: error: lambdas are not supported in kernels; write a TILEC_FUNC helper instead
  tl::store(out + tl::arange<0, BLOCK>(), 1.0f);
}
// CHECK: 1 error generated.
