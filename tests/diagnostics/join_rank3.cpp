// tl::join of rank-2 tiles translates (a rank-3 tile); of rank-3 tiles it would make a rank-4
// tile, and tl::split of a tile with a unit dimension is not translated.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void k(float *out) {
  auto t = tl::zeros<float, B, B, B>();
  auto j = tl::join(t, t);
  // CHECK: join_rank3.cpp:[[@LINE-1]]:12: error: tl::join of rank-3 tiles would make a rank-4 tile; tiles have rank 1 to 3
  auto u = tl::zeros<float, 1, B, 2>();
  auto [lo, hi] = tl::split(u);
  // CHECK: join_rank3.cpp:[[@LINE-1]]:29: error: tl::split of a [1, B, 2] tile is not translated yet; split before tl::expand_dims
}
// CHECK: 2 errors generated.
