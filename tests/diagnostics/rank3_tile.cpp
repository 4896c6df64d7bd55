// Rank-3 tiles translate (elementwise code, loads and stores, broadcasting, axis reductions,
// join and split); these operations on them do not yet, and say so where they are used.
#include <tilec/tl.h>

template <int M, int N>
TILEC_KERNEL void transposed(float *out) {
  auto z = tl::zeros<float, 2, M, N>();
  auto t = tl::trans<2, 1, 0>(z);
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:12: error: tl::trans is translated for rank-2 tiles only yet
}

template <int M, int N>
TILEC_KERNEL void reshaped(float *out) {
  auto z = tl::zeros<float, 2, M, N>();
  tl::store(out + tl::arange<0, 2 * M * N>(), tl::reshape<2 * M * N>(z));
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:47: error: tl::reshape is translated between tiles of rank 1 and 2 only yet
}

template <int M, int N>
TILEC_KERNEL void scanned(float *out) {
  auto z = tl::zeros<float, 2, M, N>();
  auto c = tl::cumsum<2>(z);
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:12: error: tl::cumsum of rank-3 tiles is not translated yet
}

template <int M, int N>
TILEC_KERNEL void summed(float *out) {
  auto z = tl::zeros<float, 2, M, N>();
  tl::store(out, tl::sum(z));
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:18: error: tl::sum: reduce rank-3 tiles one axis at a time (tl::sum<1>(t))
}

template <int M, int N>
TILEC_KERNEL void batched_dot(float *out) {
  auto a = tl::zeros<float, 2, M, N>();
  auto d = tl::dot(a, a);
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:20: error: tl::dot multiplies rank-2 tiles of numbers; this is tile<float, 2, M, N>
}

template <int M, int N>
TILEC_KERNEL void printed(float *out) {
  auto z = tl::zeros<float, 2, M, N>();
  tl::device_print("z", z);
  // CHECK: rank3_tile.cpp:[[@LINE-1]]:25: error: tl::device_print of rank-3 tiles is not translated yet
}
// CHECK: 6 errors generated.
