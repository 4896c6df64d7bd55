// One rank-1 tile used both as the rows and as the columns of a rank-2 tile would need a
// layout conversion, which is reported rather than miscompiled.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void k(float* out) {
  auto r = tl::arange<0, B>();
  auto t = tl::expand_dims<1>(r) + tl::expand_dims<0>(r);
  // CHECK: layout_conflict.cpp:[[@LINE-1]]:12: error: this tile would need a layout conversion
  tl::store(out + t, 1.0f);
}
