// relayout.cuh: tiles whose elements change places (trans, reshape), moved through shared
// memory: every owner writes its elements where the source shape puts them, the block
// synchronizes, and every thread reads the elements it holds in the result.
#pragma once

#include <tilec/device/common/layout.cuh>
#include <tilec/device/common/layout2d.cuh>
#include <tilec/device/common/layout3d.cuh>

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

/// Shared-memory slot of row-major position i: i itself, or with PAD one padding element
/// after every 32 (threads walking lines 32 elements apart then use different banks).
template <bool PAD = false> __host__ __device__ constexpr int row_major_slot(int i) {
  return PAD ? i + i / 32 : i;
}

/// The owners of the L tile `v` write its elements to their row-major slots in `buf`, then the
/// block synchronizes: every thread may read any element. All threads of the block call it.
template <class L, bool PAD = false, class T>
__device__ inline void stage_row_major(const T *v, T *buf, int tid) {
  if (L::owner(tid))
#pragma unroll
    for (int i = 0; i < L::ELEMS; ++i)
      buf[row_major_slot<PAD>(linear_index<L>(tid, i))] = v[i];
  __syncthreads();
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
  stage_row_major<From>(in, buf, tid);
#pragma unroll
  for (int j = 0; j < To::ELEMS; ++j)
    out[j] = buf[linear_index<To>(tid, j)];
  __syncthreads();
}

namespace detail {
/// Element k of (A0, A1, A2).
__host__ __device__ constexpr int pick3(int k, int a0, int a1, int a2) {
  return k == 0 ? a0 : k == 1 ? a1 : a2;
}
} // namespace detail

/// out (layout To) = in (layout From, a [S0, S1, S2] tile) with its axes permuted
/// (tl::permute<P0, P1, P2>): out is the [S_P0, S_P1, S_P2] tile whose element (o0, o1, o2)
/// is in's element with coordinate o_k along axis P_k. Owners write their elements at their
/// row-major positions in the source shape; every thread reads its result elements from
/// there. `smem` holds tile_elements<From>() * sizeof(T) bytes; all threads of the block call
/// it; it leaves `smem` free again.
template <class From, class To, int S0, int S1, int S2, int P0, int P1, int P2, class T>
__device__ inline void permute(const T *in, T *out, int tid, unsigned char *smem) {
  static_assert(((1 << P0) | (1 << P1) | (1 << P2)) == 7 && P0 >= 0 && P0 < 3 && P1 >= 0 &&
                    P1 < 3 && P2 >= 0 && P2 < 3,
                "the axes are a permutation of 0, 1, 2");
  static_assert(tile_elements<From>() == S0 * S1 * S2 && tile_elements<To>() == S0 * S1 * S2,
                "a permutation keeps the element count");
  // The result's shape, and the source strides of the result's axes.
  constexpr int E1 = detail::pick3(P1, S0, S1, S2), E2 = detail::pick3(P2, S0, S1, S2);
  constexpr int Q0 = detail::pick3(P0, S1 * S2, S2, 1), Q1 = detail::pick3(P1, S1 * S2, S2, 1),
                Q2 = detail::pick3(P2, S1 * S2, S2, 1);
  T *buf = reinterpret_cast<T *>(smem);
  stage_row_major<From>(in, buf, tid);
#pragma unroll
  for (int j = 0; j < To::ELEMS; ++j) {
    const int o = linear_index<To>(tid, j);
    out[j] = buf[o / (E1 * E2) * Q0 + o / E2 % E1 * Q1 + o % E2 * Q2];
  }
  __syncthreads();
}

} // namespace tilec
