// A variable keeps its shape when reassigned.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(int* out) {
  auto offs = tl::arange<0, BLOCK>();
  offs = tl::arange<0, 2 * BLOCK>();
  // CHECK: assign_changes_shape.cpp:[[@LINE-1]]:3: error: assignment changes the shape of 'offs' from [BLOCK] to [2 * BLOCK]
  tl::store(out + offs, 0);
}
// CHECK: 1 error generated.
