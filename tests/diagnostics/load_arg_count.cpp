// A dependent call is not checked by clang: the translator counts the arguments, and the
// variable it would have initialized is not reported again.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float* x, float* out) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < 4, 0.0f, 1);
  // CHECK: load_arg_count.cpp:[[@LINE-1]]:12: error: tl::load takes 1 to 3 arguments, 4 given
  tl::store(out + offs, v);
}
// CHECK-NOT: error:
// CHECK: 1 error generated.
