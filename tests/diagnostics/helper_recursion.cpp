// Helpers are inlined, so they cannot recurse, directly or through one another (a helper
// declared before it is defined included).
#include <tilec/tl.h>

TILEC_FUNC auto forever(auto x) { return forever(x); }

TILEC_FUNC auto odd(auto x);
TILEC_FUNC auto even(auto x) { return odd(x) + 1; }
TILEC_FUNC auto odd(auto x) { return even(x) * 2; }

template <int BLOCK>
TILEC_KERNEL void k(int* out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, forever(offs));
}

template <int BLOCK>
TILEC_KERNEL void mutual(int* out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, even(offs));
}
// CHECK: helper_recursion.cpp:5:42: error: TILEC_FUNC 'forever' calls itself (forever -> forever): helpers are inlined into the kernel, so they cannot recurse; write the recursion as a loop
// CHECK: helper_recursion.cpp:9:38: error: TILEC_FUNC 'even' calls itself (even -> odd -> even): helpers are inlined into the kernel, so they cannot recurse; write the recursion as a loop
// CHECK-NOT: error
// CHECK: 2 errors generated.
