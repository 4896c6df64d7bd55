// gather.cuh: tiles whose elements are picked by their position along one axis (tl::flip,
// tl::gather), through shared memory: the owners of the source write its elements at their
// row-major positions, the block synchronizes, and every thread reads the elements it holds
// in the result from where the axis' index puts them.
//
// The axis is given by N, its length, and INNER, the distance in row-major order between
// consecutive elements along it (the product of the later dimensions): in a [A, B, C] tile
// axis 1 is N = B, INNER = C.
#pragma once

#include <tilec/device/common/relayout.cuh>
#include <tilec/device/common/types.cuh>

namespace tilec {

/// out (layout To) = in (layout From) with one axis reversed: the element at coordinate k
/// along it moves to N - 1 - k. `smem` holds tile_elements<From>() * sizeof(T) bytes; all
/// threads of the block call it; it leaves `smem` free again.
template <class From, class To, int N, int INNER, class T>
__device__ inline void flip(const T *in, T *out, int tid, unsigned char *smem) {
  static_assert(tile_elements<From>() == tile_elements<To>(), "a flip keeps the tile's shape");
  static_assert(N > 0 && INNER > 0 && tile_elements<From>() % (N * INNER) == 0,
                "the flipped axis must be an axis of the tile");
  T *buf = reinterpret_cast<T *>(smem);
  stage_row_major<From>(in, buf, tid);
#pragma unroll
  for (int j = 0; j < To::ELEMS; ++j) {
    const int o = linear_index<To>(tid, j);
    const int k = o / INNER % N;
    out[j] = buf[o + (N - 1 - 2 * k) * INNER];
  }
  __syncthreads();
}

/// out (layout Idx, the index's shape) = src (layout Src) gathered along one axis, which has
/// N elements in src and M in the index (the other axes agree): out's element at some
/// coordinates is src's element at the same coordinates but idx's value along the axis
/// (tl::gather). An index outside [0, N), undefined in Triton, reads the element at the index
/// modulo N: never outside src. `smem` holds tile_elements<Src>() * sizeof(T) bytes; all
/// threads of the block call it; it leaves `smem` free again.
template <class Src, class Idx, int N, int M, int INNER, class T, class I>
__device__ inline void gather(const T *src, const I *idx, T *out, int tid, unsigned char *smem) {
  static_assert(type_rank<I>::kind <= 1, "tl::gather: the index must be an integer tile");
  static_assert((N & (N - 1)) == 0 && N > 0, "tile dimensions are powers of two");
  static_assert(tile_elements<Src>() / N == tile_elements<Idx>() / M,
                "the source and the index agree on every axis but the gathered one");
  T *buf = reinterpret_cast<T *>(smem);
  stage_row_major<Src>(src, buf, tid);
#pragma unroll
  for (int j = 0; j < Idx::ELEMS; ++j) {
    const int o = linear_index<Idx>(tid, j);
    const int k = static_cast<int>(idx[j]) & (N - 1);
    out[j] = buf[(o / (M * INNER) * N + k) * INNER + o % INNER];
  }
  __syncthreads();
}

} // namespace tilec
