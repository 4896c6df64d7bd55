// `?:` with a tile condition is reported once, where it is written, with the fix; the later
// assignments of the variable it initialized are not reported again.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float* x, float* out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  auto w = offs < n ? v : v * 2.0f;
  // CHECK: ternary_on_tiles_once.cpp:[[@LINE-1]]:12: error: '?:' needs a scalar condition; use tl::where to select per element
  w = w + 1.0f;
  w += 2.0f;
  tl::store(out + offs, w, offs < n);
}
// CHECK-NOT: can be assigned
// CHECK: 1 error generated.
