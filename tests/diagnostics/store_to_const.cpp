// Stores go through pointers to non-const.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float* out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, 1.0f);
  // CHECK: store_to_const.cpp:[[@LINE-1]]:13: error: tl::store needs a pointer (to non-const) or a tile of them
}
// CHECK: 1 error generated.
