// Tiles of rank 2 and 3 are part of the vocabulary but not translated yet.
#include <tilec/tl.h>

template <int M, int N>
TILEC_KERNEL void k(float* out) {
  auto z = tl::zeros<float, M, N>();
  // CHECK: rank2_tile.cpp:[[@LINE-1]]:12: error: only rank-1 tiles are supported yet
}
// CHECK: 1 error generated.
