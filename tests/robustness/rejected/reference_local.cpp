// A non-const reference local, and a helper that takes its argument by reference: the
// translator gives each variable its own value, so the writes would not reach the original.
#include <tilec/tl.h>

TILEC_FUNC void bump(auto &t) { t = t + 1; }

template <int BLOCK>
TILEC_KERNEL void k(float *out) {
  auto offs = tl::arange<0, BLOCK>();
  auto &alias = offs;
  alias = alias + 1;
  bump(offs);
  bump(offs); // reported once, not per call
  tl::store(out + offs, tl::full<float, BLOCK>(1.0f));
}
// CHECK: reference_local.cpp:10:9: error: local variable 'alias' is a reference: writes through it would be lost in the CUDA; use a value ('auto x = ...') and assign it back
// CHECK: reference_local.cpp:5:28: error: helper parameter 't' is a reference: writes through it would be lost in the CUDA; take it by value ('auto t') and return the new value
// CHECK-NOT: error
// CHECK: 2 errors generated.
