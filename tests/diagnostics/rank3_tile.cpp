// Tiles of rank 3 are part of the vocabulary but not translated yet.
#include <tilec/tl.h>

template <int M, int N>
TILEC_KERNEL void k(float* out) {
  auto z = tl::zeros<float, 2, M, N>();
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:12: error: tiles of rank 3 are not supported by the translator yet
}
// CHECK: 1 error generated.
