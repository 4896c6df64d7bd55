// tl::interleave / tl::cat misused: located errors that say what is translated.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out) {
  auto a = tl::arange<0, BLOCK>();
  auto b = tl::arange<0, 2 * BLOCK>();
  auto m = tl::expand_dims<0>(a);
  tl::store(out + tl::arange<0, 3 * BLOCK>(), tl::cast<float>(tl::interleave(a, b)));
  // CHECK: interleave_misuse.cpp:[[@LINE-1]]:63: error: tl::interleave takes two tiles of the same shape
  tl::store(out + tl::arange<0, 2 * BLOCK>(), tl::cast<float>(tl::ravel(tl::cat(m, m))));
  // CHECK: interleave_misuse.cpp:[[@LINE-1]]:73: error: tl::cat is translated for rank-1 tiles; for rank-2 ones write two stores, or tl::join and index the new axis
}
// CHECK: 2 errors generated.
