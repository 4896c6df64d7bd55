// tl::join of rank-2 tiles would make a rank-3 tile, which the translator does not lower yet.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void k(float *out) {
  auto t = tl::zeros<float, B, B>();
  auto j = tl::join(t, t);
  // CHECK: join_rank3.cpp:[[@LINE-1]]:12: error: tl::join of rank-2 tiles (a rank-3 result) is not translated yet
  tl::store(out + tl::arange<0, B>(), tl::sum<1>(t));
}
