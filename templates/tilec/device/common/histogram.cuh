// histogram.cuh: tl::histogram, the counts of the values 0 .. BINS - 1 of a rank-1 tile,
// made in shared memory: the block clears BINS counters, the owner of each element adds one
// to its value's counter with a shared-memory atomic (values outside the bins, and lanes the
// mask turns off, add nothing), and every thread reads the counters it holds in the result.
#pragma once

#include <tilec/device/common/relayout.cuh>
#include <tilec/device/common/types.cuh>

namespace tilec {

namespace detail {
/// True when v is one of 0 .. BINS - 1: negative values become huge unsigned ones.
template <int BINS, class T> __device__ inline bool in_bins(T v) {
  return static_cast<unsigned long long>(static_cast<long long>(v)) <
         static_cast<unsigned long long>(BINS);
}

template <class L, class R, int BINS, int THREADS, bool MASKED, class T>
__device__ inline void count_values(const T *x, const bool *mask, int *out, int tid,
                                    unsigned char *smem) {
  static_assert(type_rank<T>::kind <= 1, "tl::histogram counts integers: cast the tile first");
  static_assert(BINS > 0 && (BINS & (BINS - 1)) == 0, "the number of bins is a power of two");
  static_assert(tile_elements<R>() == BINS, "the result holds one counter per bin");
  int *bins = reinterpret_cast<int *>(smem);
  for (int b = tid; b < BINS; b += THREADS)
    bins[b] = 0;
  __syncthreads();
  if (L::owner(tid))
#pragma unroll
    for (int i = 0; i < L::ELEMS; ++i)
      if ((!MASKED || mask[i]) && in_bins<BINS>(x[i]))
        atomicAdd(&bins[static_cast<int>(x[i])], 1);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < R::ELEMS; ++j)
    out[j] = bins[linear_index<R>(tid, j)];
  __syncthreads();
}
} // namespace detail

/// out (layout R, [BINS] int32) = how many elements of x (layout L, rank 1) equal each of
/// 0 .. BINS - 1. `smem` holds BINS ints; all THREADS threads of the block call it; it leaves
/// `smem` free again.
template <class L, class R, int BINS, int THREADS, class T>
__device__ inline void histogram(const T *x, int *out, int tid, unsigned char *smem) {
  detail::count_values<L, R, BINS, THREADS, false>(x, nullptr, out, tid, smem);
}

/// The same, counting only the elements whose mask (layout L too) is true.
template <class L, class R, int BINS, int THREADS, class T>
__device__ inline void histogram(const T *x, const bool *mask, int *out, int tid,
                                 unsigned char *smem) {
  detail::count_values<L, R, BINS, THREADS, true>(x, mask, out, tid, smem);
}

} // namespace tilec
