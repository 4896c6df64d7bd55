// Using the result of a helper that returns nothing.
#include <tilec/tl.h>

TILEC_FUNC void nothing(auto x) {}

template <int BLOCK>
TILEC_KERNEL void k(int* out) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = nothing(offs);
  tl::store(out + offs, v);
  // CHECK: helper_without_value.cpp:[[@LINE-1]]:25: error: 'v' has no value: its initializer produces none
}
// CHECK: 1 error generated.
