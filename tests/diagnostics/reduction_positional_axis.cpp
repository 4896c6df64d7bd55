// Triton's positional axis, `tl.sum(x, 0)`: the axis of a tilec reduction is a template
// argument, and the error says how to write it.
#include <tilec/tl.h>

template <int B> TILEC_KERNEL void k(const float* x, float* out) {
  auto v = tl::load(x + tl::arange<0, B>());
  tl::store(out, tl::sum(v, 0));
  // CHECK: reduction_positional_axis.cpp:[[@LINE-1]]:18: error: tl::sum takes one tile; the axis is a template argument: tl::sum<0>(x)
}
// CHECK: 1 error generated.
