// relayout.cuh: tiles whose elements change places (trans, reshape), moved through shared
// memory: every owner writes its elements where the source shape puts them, the block
// synchronizes, and every thread reads the elements it holds in the result.
#pragma once

#include <tilec/device/layout.cuh>
#include <tilec/device/layout2d.cuh>
#include <tilec/device/layout3d.cuh>

namespace tilec {

/// True for rank-2 layouts (they have COLS).
template <class L> struct is_rank2_layout {
  template <class U> __host__ __device__ static constexpr bool test(decltype(U::COLS) *) {
    return true;
  }
  template <class U> __host__ __device__ static constexpr bool test(...) { return false; }
  static constexpr bool value = test<L>(nullptr);
};

/// Row-major position of element i of thread `tid` in its tile, for any layout.
template <class L> __device__ inline int linear_index(int tid, int i) {
  if constexpr (is_linear_layout<L>::value)
    return L::linear(tid, i);
  else if constexpr (is_rank2_layout<L>::value)
    return L::row(tid, i) * L::COLS + L::col(tid, i);
  else
    return L::coord(tid, i);
}

/// Elements in a tile of layout L.
template <class L> __host__ __device__ constexpr int tile_elements() {
  if constexpr (is_linear_layout<L>::value)
    return L::TILE_SIZE;
  else if constexpr (is_rank2_layout<L>::value)
    return L::ROWS * L::COLS;
  else
    return L::TILE_SIZE;
}

/// Padding (in elements) after each row of a transposed tile in shared memory, so that the
/// reads down a column fall in different banks.
template <class T> __host__ __device__ constexpr int transpose_pad() {
  return sizeof(T) >= 4 ? 1 : int(4 / sizeof(T));
}

template <class From, class T> __host__ __device__ constexpr int transpose_bytes() {
  return From::ROWS * (From::COLS + transpose_pad<T>()) * int(sizeof(T));
}

/// out (layout To, [N, M]) = the transpose of in (layout From, [M, N]). `smem` holds
/// transpose_bytes<From, T>(); all threads of the block call it; it leaves `smem` free again.
template <class From, class To, class T>
__device__ inline void transpose(const T *in, T *out, int tid, unsigned char *smem) {
  static_assert(From::ROWS == To::COLS && From::COLS == To::ROWS, "a transpose swaps the axes");
  constexpr int STRIDE = From::COLS + transpose_pad<T>();
  T *buf = reinterpret_cast<T *>(smem);
  if (From::owner(tid))
#pragma unroll
    for (int i = 0; i < From::ELEMS; ++i)
      buf[From::row(tid, i) * STRIDE + From::col(tid, i)] = in[i];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < To::ELEMS; ++j)
    out[j] = buf[To::col(tid, j) * STRIDE + To::row(tid, j)];
  __syncthreads();
}

/// out (layout To) = in (layout From) with the same elements in the same row-major order and
/// another shape (tl::reshape). `smem` holds tile_elements<From>() * sizeof(T) bytes.
template <class From, class To, class T>
__device__ inline void reshape(const T *in, T *out, int tid, unsigned char *smem) {
  static_assert(tile_elements<From>() == tile_elements<To>(), "a reshape keeps the element count");
  T *buf = reinterpret_cast<T *>(smem);
  if (From::owner(tid))
#pragma unroll
    for (int i = 0; i < From::ELEMS; ++i)
      buf[linear_index<From>(tid, i)] = in[i];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < To::ELEMS; ++j)
    out[j] = buf[linear_index<To>(tid, j)];
  __syncthreads();
}

} // namespace tilec
