// Scans and arg reductions of rank-2 tiles: the axis must be 0 or 1 (or every axis, for the
// reductions); arg reductions of [M, 1] tiles are not translated yet.
#include <tilec/tl.h>

template <int BM, int BN>
TILEC_KERNEL void k(const float* x, float* out, int* idx) {
  auto rows = tl::arange<0, BM>();
  auto offs = tl::expand_dims<1>(rows) * BN + tl::expand_dims<0>(tl::arange<0, BN>());
  auto v = tl::load(x + offs);
  tl::store(out + offs, tl::cumsum<2>(v));
  // CHECK: axis_of_scan_or_argmax.cpp:[[@LINE-1]]:25: error: tl::cumsum: the axis must be a dimension of the tile (0 or 1)
  tl::store(out + rows, tl::cumprod<1>(rows));
  // CHECK: axis_of_scan_or_argmax.cpp:[[@LINE-1]]:25: error: tl::cumprod: the axis must be a dimension of the tile (0)
  tl::store(idx, tl::argmax<2>(v));
  // CHECK: axis_of_scan_or_argmax.cpp:[[@LINE-1]]:18: error: tl::argmax: the axis must be a dimension of the tile (0 or 1)
  tl::store(idx + rows, tl::argmin<1>(tl::expand_dims<1>(tl::load(x + rows))));
  // CHECK: axis_of_scan_or_argmax.cpp:[[@LINE-1]]:25: error: tl::argmin of a [BM, 1] tile is not supported by the translator yet; reduce the rank-1 tile before tl::expand_dims
}
// CHECK: 4 errors generated.
