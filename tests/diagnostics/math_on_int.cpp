// Transcendentals take floating-point operands, as in Triton.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::exp(offs));
  // CHECK: math_on_int.cpp:[[@LINE-1]]:33: error: tl::exp needs a floating-point operand (use tl::cast)
}
// CHECK: 1 error generated.
