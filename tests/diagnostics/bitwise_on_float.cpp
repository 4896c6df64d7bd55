// Bitwise operators need integers (bitcast first).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float* x, float* out) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs);
  tl::store(out + offs, v & v);
  // CHECK: bitwise_on_float.cpp:[[@LINE-1]]:25: error: operator '&' needs integer operands
  tl::store(out + offs, ~v);
  // CHECK: bitwise_on_float.cpp:[[@LINE-1]]:25: error: operator '~' needs an integer operand
}
// CHECK: 2 errors generated.
