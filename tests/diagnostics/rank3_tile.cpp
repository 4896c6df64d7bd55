// Rank-3 tiles translate (elementwise code, loads and stores, broadcasting, reductions,
// permute, reshape, join and split); these operations on them do not yet (or are errors in
// the interpreter too), and say so where they are used.
#include <tilec/tl.h>

template <int M, int N>
TILEC_KERNEL void transposed(float *out) {
  auto z = tl::zeros<float, 2, M, N>();
  auto t = tl::trans(z);
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:12: error: tl::trans without axes needs a rank-2 tile; write tl::trans<...>(t) or tl::permute<...>(t)
}

template <int M, int N>
TILEC_KERNEL void permuted(float *out) {
  auto z = tl::zeros<float, 2, M, N>();
  auto t = tl::permute<2, 0, 2>(z);
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:12: error: tl::permute of a rank-3 tile takes a permutation of the axes 0, 1, 2
}

template <int M, int N>
TILEC_KERNEL void reshaped(float *out) {
  auto z = tl::zeros<float, 2, M, N>();
  auto r = tl::reshape<2, M, N, 1>(z);
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:12: error: tl::reshape is translated between tiles of rank 1 to 3 only
}

template <int M, int N>
TILEC_KERNEL void batched_dot(float *out) {
  auto a = tl::zeros<float, 2, M, N>();
  auto d = tl::dot(a, a);
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:20: error: tl::dot multiplies rank-2 tiles of numbers; this is tile<float, 2, M, N>
}

// CHECK: 4 errors generated.
