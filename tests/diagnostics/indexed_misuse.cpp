// tl::flip, tl::gather and tl::histogram misused: located errors that say what to write.
#include <tilec/tl.h>

template <int B, int AXIS>
TILEC_KERNEL void k(const float *x, const int *idx, float *out, int *counts) {
  auto i = tl::arange<0, B>();
  auto v = tl::load(x + i);
  auto k = tl::load(idx + i);
  auto m = tl::expand_dims<1>(k) + tl::expand_dims<0>(k); // [B, B]
  tl::store(out + i, tl::flip<1>(v));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:22: error: tl::flip<1>: a rank-1 tile has the axis 0 (or -1)
  tl::store(out + i, tl::flip<AXIS>(v));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:22: error: tl::flip<AXIS>: the axis must be known when the kernel is translated (a literal such as 0 or -1), not a template parameter
  tl::store(out + i, tl::flip(tl::sum(v)));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:31: error: tl::flip takes a tile
  tl::store(out + i, tl::gather<0>(v, v));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:39: error: tl::gather: the index must be an integer tile, not tile<float, B>; convert it with tl::cast<int>(index)
  tl::store(out + i, tl::gather(v, k));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:22: error: tl::gather needs the axis as a template argument: tl::gather<AXIS>(src, index)
  tl::store(out + i, tl::gather<0>(m, k));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:22: error: tl::gather: the source [B, B] and the index [B] must have the same rank
  tl::store(out + i, tl::gather<-3>(m, m));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:22: error: tl::gather<-3>: a rank-2 tile has the axes 0 and 1 (or -2 and -1)
  auto wide = tl::expand_dims<1>(k) + tl::expand_dims<0>(tl::arange<0, 2 * B>()); // [B, 2 * B]
  tl::store(counts + m, tl::gather<0>(m, wide));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:25: error: tl::gather<0>: the source [B, B] and the index [B, 2 * B] must have the same size on every axis but 0
  tl::store(counts + i, tl::histogram<B>(v));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:42: error: tl::histogram counts integers, not float values; convert them first: tl::histogram<B>(tl::cast<int>(x))
  tl::store(counts + tl::arange<0, 16>(), tl::histogram<12>(k));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:43: error: tl::histogram<12>: the number of bins is the size of the result tile, a power of two; write tl::histogram<16>(x) and leave the bins from 12 on unused
  tl::store(counts + i, tl::histogram<B>(m));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:42: error: tl::histogram takes a rank-1 tile, not [B, B]; flatten it first: tl::histogram<B>(tl::ravel(x))
  tl::store(counts + i, tl::histogram<B>(k, k));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:45: error: the mask must be bool (a comparison)
  tl::store(counts + i, tl::histogram(k));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:25: error: tl::histogram needs the number of bins: tl::histogram<NUM_BINS>(x)
  tl::store(counts + tl::arange<0, 16384>(), tl::histogram<16384>(k));
  // CHECK: indexed_misuse.cpp:[[@LINE-1]]:46: error: tl::histogram<16384>: the bins are counted in shared memory, which holds at most 8192; count the values in ranges of 8192 (tl::histogram<8192>(x - base))
}
// CHECK: 14 errors generated.
