// Helpers are inlined, so they cannot recurse.
#include <tilec/tl.h>

TILEC_FUNC auto forever(auto x) { return forever(x); }
// CHECK: helper_recursion.cpp:[[@LINE-1]]:42: error: TILEC_FUNC helpers nest too deeply (recursion is not supported)

template <int BLOCK>
TILEC_KERNEL void k(int* out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, forever(offs));
}
// CHECK: 1 error generated.
