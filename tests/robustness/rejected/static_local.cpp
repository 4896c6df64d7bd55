// A static local counts across program instances in the interpreter (1 2 3 4) but not on the
// GPU (1 1 1 1): refused.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(int *out) {
  static int calls = 0;
  calls += 1;
  tl::store(out + tl::program_id(0), calls);
}
// CHECK: static_local.cpp:7:14: error: 'calls' is static: the interpreter shares it between program instances, the GPU does not; use a plain local, or tl::atomic_add on a buffer to count across programs
// CHECK-NOT: error
// CHECK: 1 error generated.
