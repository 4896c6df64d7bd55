// sort.cuh: tiles sorted along one axis (tl::sort, tl::topk), through shared memory: the owners
// write the tile at its row-major positions, the block runs a bitonic sorting network over
// every line along the axis (one compare-exchange per thread and pair, a barrier per step),
// and every thread reads what it holds in the result.
//
// The axis is given as for tl::flip (gather.cuh): N its length, INNER the distance in
// row-major order between consecutive elements along it. The order is the interpreter's
// (tl/sort.h): a total order on the elements' bits, so both sort a tile to the same bits.
#pragma once

#include <tilec/device/common/relayout.cuh>
#include <tilec/device/common/types.cuh>

namespace tilec {

/// The unsigned key whose order is the sort's: integers by value; floats by sign and
/// magnitude (-0 before +0, NaNs past the infinities of their sign).
template <class T> __device__ inline unsigned long long sort_key(T x) {
  if constexpr (is_same_v<T, bool>) {
    return x ? 1ull : 0ull;
  } else if constexpr (is_same_v<T, float> || is_same_v<T, double> || is_same_v<T, __half> ||
                       is_same_v<T, __nv_bfloat16>) {
    unsigned long long bits, sign;
    if constexpr (sizeof(T) == 2) {
      bits = *reinterpret_cast<const unsigned short *>(&x);
      sign = 1ull << 15;
    } else if constexpr (sizeof(T) == 4) {
      bits = __float_as_uint(x);
      sign = 1ull << 31;
    } else {
      bits = static_cast<unsigned long long>(__double_as_longlong(x));
      sign = 1ull << 63;
    }
    const unsigned long long mask = sign | (sign - 1);
    return (bits & sign) ? (~bits & mask) : (bits | sign);
  } else if constexpr (T(-1) < T(0)) { // signed integers
    return static_cast<unsigned long long>(static_cast<long long>(x)) ^ (1ull << 63);
  } else {
    return static_cast<unsigned long long>(x);
  }
}

/// out (layout To) = in (layout From) with every line along one axis (N long, INNER apart)
/// sorted, ascending unless DESCENDING; out keeps the first M of each sorted line (M = N for
/// tl::sort, K for tl::topk). `smem` holds tile_elements<From>() * sizeof(T) bytes; all THREADS
/// threads of the block call it; it leaves `smem` free again.
template <class From, class To, int N, int M, int INNER, bool DESCENDING, int THREADS, class T>
__device__ inline void sort_lines(const T *in, T *out, int tid, unsigned char *smem) {
  constexpr int SIZE = tile_elements<From>();
  static_assert(N > 0 && (N & (N - 1)) == 0, "tile dimensions are powers of two");
  static_assert(M > 0 && M <= N && SIZE % (N * INNER) == 0, "the sorted axis is an axis of the tile");
  static_assert(tile_elements<To>() / M == SIZE / N, "the result differs only along the axis");
  T *buf = reinterpret_cast<T *>(smem);
  stage_row_major<From>(in, buf, tid);
  // Bitonic network: runs of `size` sorted alternately up and down, merged by compare-exchanges
  // `stride` apart; pair p of a line is its element i (bit `stride` clear) and i + stride.
  constexpr int PAIRS = SIZE / 2;
#pragma unroll 1
  for (int size = 2; size <= N; size *= 2) {
#pragma unroll 1
    for (int stride = size / 2; stride > 0; stride /= 2) {
      for (int p = tid; p < PAIRS; p += THREADS) {
        const int line = p / (N / 2), q = p % (N / 2);
        const int i = 2 * stride * (q / stride) + q % stride;
        const int base = line / INNER * (N * INNER) + line % INNER;
        const int a = base + i * INNER, b = a + stride * INNER;
        const bool up = ((i & size) == 0) != DESCENDING;
        const T x = buf[a], y = buf[b];
        if ((sort_key(x) > sort_key(y)) == up) {
          buf[a] = y;
          buf[b] = x;
        }
      }
      __syncthreads();
    }
  }
#pragma unroll
  for (int j = 0; j < To::ELEMS; ++j) {
    const int o = linear_index<To>(tid, j);
    out[j] = buf[(o / (M * INNER) * N + o / INNER % M) * INNER + o % INNER];
  }
  __syncthreads();
}

} // namespace tilec
