// Writes through a reference parameter would be dropped from the CUDA: refused.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float *out, int &count, const int &n) {
  count = count + 1;
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::full<float, BLOCK>(1.0f), offs < n);
}
// `const int &n` cannot be written through, so it is as good as a value.
// CHECK: reference_parameter.cpp:5:38: error: kernel parameter 'count' is a reference: writes through it would be lost in the CUDA; pass 'int' by value and write results through a pointer
// CHECK-NOT: error
// CHECK: 1 error generated.
