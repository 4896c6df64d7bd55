// tl::where selects between two values or two pointers of one type (this used to crash).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float* x, const int* y, float* out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto p = tl::where(offs < n, x + offs, y + offs);
  // CHECK: where_pointer_mismatch.cpp:[[@LINE-1]]:12: error: tl::where needs two values, or two pointers to the same type
  auto q = tl::where(offs < n, x + offs, 1.0f);
  // CHECK: where_pointer_mismatch.cpp:[[@LINE-1]]:12: error: tl::where needs two values, or two pointers to the same type
}
// CHECK: 2 errors generated.
