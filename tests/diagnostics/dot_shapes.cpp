// tl::dot needs [M, K] x [K, N] of one element type, with an accumulator of the right type
// and shape; errors point at the offending call or argument.
#include <tilec/tl.h>

template <int M, int N, int K>
TILEC_KERNEL void k(const tl::half *a, const float *f, float *out) {
  auto x = tl::load(a + tl::expand_dims<1>(tl::arange<0, M>()) * K + tl::expand_dims<0>(tl::arange<0, K>()));
  auto y = tl::load(a + tl::expand_dims<1>(tl::arange<0, N>()) * K + tl::expand_dims<0>(tl::arange<0, K>()));
  auto z = tl::load(f + tl::expand_dims<1>(tl::arange<0, K>()) * N + tl::expand_dims<0>(tl::arange<0, N>()));
  auto r = tl::dot(x, y);
  // CHECK: dot_shapes.cpp:[[@LINE-1]]:12: error: tl::dot shapes do not match: [M, K] x [N, K] (the columns of a must equal the rows of b)
  auto s = tl::dot(x, z);
  // CHECK: dot_shapes.cpp:[[@LINE-1]]:12: error: tl::dot operands must have the same element type (tl::half and float); cast one with tl::cast
  auto t = tl::dot(x, tl::trans(y), tl::zeros<int, M, N>());
  // CHECK: dot_shapes.cpp:[[@LINE-1]]:37: error: the accumulator of tl::dot on tl::half must hold float, not int
  auto u = tl::dot(tl::arange<0, M>(), tl::arange<0, M>());
  // CHECK: dot_shapes.cpp:[[@LINE-1]]:20: error: tl::dot multiplies rank-2 tiles of numbers; this is tile<int, M>
  tl::store(out + tl::arange<0, M>(), tl::sum<1>(r + s + t));
}
