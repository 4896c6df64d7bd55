// instantiate.cu: instantiates every template of the reduction, scan, random, atomic,
// broadcast, gather and histogram headers for a few layouts and element types, so that nvcc
// and NVRTC both check their bodies (including their inline PTX, when compiled to sm_XX).
// Never launched.
#define TILEC_FP8 // the fp8 casts below; the library declares fp8 on request
#include <tilec/device.cuh>

namespace {

// Reductions, arg reductions and scans of one layout and element type.
template <class L, class T> __device__ void tile_ops(T *out, int *index, unsigned char *smem) {
  const int tid = threadIdx.x;
  T v[L::ELEMS];
#pragma unroll
  for (int i = 0; i < L::ELEMS; ++i)
    v[i] = tilec::cast<T>(L::coord(tid, i));
  T r = tilec::reduce_tile<L>(v, tilec::SumOp{}, tid, smem);
  r = tilec::SumOp{}(r, tilec::reduce_tile<L>(v, tilec::MaxOp{}, tid, smem));
  r = tilec::SumOp{}(r, tilec::reduce_tile<L>(v, tilec::MinOp{}, tid, smem));
  r = tilec::SumOp{}(
      r, tilec::reduce_tile<L>(v, [](T a, T b) { return tilec::maximum(a, b); }, tid, smem));
  index[tid] = tilec::arg_reduce_tile<L, true>(v, tid, smem) +
               tilec::arg_reduce_tile<L, false>(v, tid, smem) +
               tilec::arg_reduce_tile<L, true, T, false>(v, tid, smem);
  tilec::scan_tile<L>(v, tilec::SumOp{}, tid, smem);
  tilec::scan_tile<L, T, tilec::MaxOp, true>(v, tilec::MaxOp{}, tid, smem);
  out[tid] = tilec::SumOp{}(r, v[L::ELEMS - 1]);
}

template <class L, class T> __device__ void int_tile_ops(T *out, unsigned char *smem) {
  const int tid = threadIdx.x;
  T v[L::ELEMS];
#pragma unroll
  for (int i = 0; i < L::ELEMS; ++i)
    v[i] = T(L::coord(tid, i));
  out[tid] = tilec::reduce_tile<L>(v, tilec::XorOp{}, tid, smem);
}

// Rank-2 tiles: scans along either axis (forward and reverse), arg reductions along either
// axis, and device_print / device_assert of every kind of operand.
template <class P, class T> __device__ void rank2_ops(T *out, int *index, unsigned char *smem) {
  const int tid = threadIdx.x;
  T v[P::ELEMS];
#pragma unroll
  for (int i = 0; i < P::ELEMS; ++i)
    v[i] = tilec::cast<T>(P::row(tid, i) - P::col(tid, i));
  int rows[tilec::Slice<P, 1>::ELEMS], cols[tilec::Slice<P, 0>::ELEMS];
  tilec::arg_reduce_axis<P, 1, true, T, false>(v, rows, tid, smem);
  tilec::arg_reduce_axis<P, 0, false, T, false>(v, cols, tid, smem);
  tilec::scan_axis<P, 1, T, tilec::SumOp>(v, tilec::SumOp{}, tid, smem);
  tilec::scan_axis<P, 0, T, tilec::MaxOp, true>(v, tilec::MaxOp{}, tid, smem);
  tilec::scan_axis<P, 0, T, tilec::SumOp>(v, tilec::SumOp{}, tid, smem);
  tilec::scan_axis<P, 1, T, tilec::MinOp, true>(v, tilec::MinOp{}, tid, smem);
  if (P::owner(tid))
    tilec::device_print("v", P::row(tid, 0), P::col(tid, 0), v[0]);
  tilec::device_print("rows", tilec::Slice<P, 1>::coord(tid, 0), rows[0]);
  tilec::device_print("out", out);
  if (!(rows[0] >= 0))
    tilec::device_assert_fail("negative index", "instantiate.cu", 1, "rank2_ops", 0);
  out[tid] = v[P::ELEMS - 1];
  index[tid] = rows[0] + cols[0];
}

// tl::flip and tl::gather along an axis of N elements INNER apart (the result in L too), and
// for rank-1 layouts tl::histogram with and without a mask.
template <class L, int N, int INNER, class T, class I>
__device__ void indexed_ops(T *out, int *counts, unsigned char *smem) {
  using Bins = tilec::Blocked1D<16, 128, 1>;
  const int tid = threadIdx.x;
  T v[L::ELEMS], r[L::ELEMS];
  I k[L::ELEMS];
  bool m[L::ELEMS];
#pragma unroll
  for (int i = 0; i < L::ELEMS; ++i) {
    const int at = tilec::linear_index<L>(tid, i);
    v[i] = tilec::cast<T>(at);
    k[i] = I(at * 7);
    m[i] = at % 3 != 0;
  }
  tilec::flip<L, L, N, INNER>(v, r, tid, smem);
  tilec::gather<L, L, N, N, INNER>(r, k, v, tid, smem);
  if constexpr (!tilec::is_rank2_layout<L>::value) {
    int h[Bins::ELEMS];
    tilec::histogram<L, Bins, 16, 128>(k, h, tid, smem);
    tilec::histogram<L, Bins, 16, 128>(k, m, h, tid, smem);
    counts[tid] = h[0];
  }
  out[tid] = v[0];
}

template <class T> __device__ void scalar_atomics(T *p, T *out) {
  T r = tilec::atomic_add(p, T(1));
  r += tilec::atomic_max(p, T(2));
  r += tilec::atomic_min(p, T(3));
  r += tilec::atomic_xchg(p, T(4));
  r += tilec::atomic_cas(p, T(4), T(5));
  r += tilec::atomic_add<tilec::MemSem::relaxed, tilec::MemScope::cta>(p, T(1));
  r += tilec::atomic_max<tilec::MemSem::acquire, tilec::MemScope::sys>(p, T(1));
  r += tilec::atomic_cas<tilec::MemSem::release, tilec::MemScope::gpu>(p, T(1), T(2));
  *out = r;
}

template <class T> __device__ void bitwise_atomics(T *p, T *out) {
  *out = tilec::atomic_and(p, T(1)) ^ tilec::atomic_or(p, T(2)) ^ tilec::atomic_xor(p, T(3));
}

} // namespace

__global__ void __launch_bounds__(128)
    instantiate_128(float *f, __half *h, __nv_bfloat16 *b, double *d, int *i, int64_t *l,
                    uint32_t *u, uint64_t *ul, int *index) {
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  tile_ops<tilec::Blocked1D<1024, 128, 4>, float>(f, index, smem);
  tile_ops<tilec::Blocked1D<16, 128, 4>, float>(f, index, smem); // replicated, 8 copies
  tile_ops<tilec::Blocked1D<64, 128, 4>, float>(f, index, smem); // replicated, 2 copies
  tile_ops<tilec::Blocked1D<1, 128, 4>, float>(f, index, smem);
  tile_ops<tilec::Blocked1D<512, 128, 8>, __half>(h, index, smem);
  tile_ops<tilec::Blocked1D<256, 128, 8>, __nv_bfloat16>(b, index, smem);
  tile_ops<tilec::Blocked1D<256, 128, 2>, double>(d, index, smem);
  tile_ops<tilec::Blocked1D<2048, 128, 4>, int>(i, index, smem);
  tile_ops<tilec::Blocked1D<32, 128, 4>, int64_t>(l, index, smem);
  int_tile_ops<tilec::Blocked1D<4096, 128, 4>, uint32_t>(u, smem);
  int_tile_ops<tilec::Blocked1D<8, 128, 4>, uint64_t>(ul, smem);
  scalar_atomics(i, i + 1);
  scalar_atomics(u, u + 1);
  scalar_atomics(l, l + 1);
  scalar_atomics(ul, ul + 1);
  scalar_atomics(f, f + 1);
  scalar_atomics(d, d + 1);
  bitwise_atomics(i, i + 2);
  bitwise_atomics(ul, ul + 2);
  i[3] = tilec::block_broadcast(i[threadIdx.x], 5, smem);
  d[3] = tilec::block_broadcast(d[threadIdx.x], 7, smem);
}

__global__ void __launch_bounds__(1024) instantiate_1024(float *f, int8_t *c, int *index) {
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  tile_ops<tilec::Blocked1D<4096, 1024, 4>, float>(f, index, smem); // 32 warps
  tile_ops<tilec::Blocked1D<512, 1024, 4>, float>(f, index, smem);  // replicated, 16 warps each
  tile_ops<tilec::Blocked1D<8192, 1024, 4>, double>(reinterpret_cast<double *>(f), index, smem);
  tile_ops<tilec::Blocked1D<2048, 1024, 16>, int8_t>(c, index, smem);
}

__global__ void __launch_bounds__(256)
    instantiate_rank2(float *f, __half *h, double *d, int *i, bool *b, uint8_t *u, int *index) {
  __shared__ alignas(16) unsigned char smem[16384];
  rank2_ops<tilec::Blocked2D<32, 128, 256, 4>, float>(f, index, smem);  // warps down columns
  rank2_ops<tilec::Blocked2D<16, 1024, 256, 4>, float>(f, index, smem); // warps along rows
  rank2_ops<tilec::Blocked2D<4, 64, 256, 4>, float>(f, index, smem);    // rows repeat
  rank2_ops<tilec::Blocked2D<64, 8, 256, 2>, __half>(h, index, smem);   // narrow rows
  rank2_ops<tilec::Blocked2D<16, 16, 256, 1>, double>(d, index, smem);
  // Warps down the columns first (rows reduced within a warp): whole rows per warp, rows
  // fewer than the warps, and rows too short for the choice to matter.
  rank2_ops<tilec::Blocked2D<8, 4096, 128, 8, true>, __half>(h, index, smem);
  rank2_ops<tilec::Blocked2D<2, 4096, 128, 4, true>, float>(f, index, smem);
  rank2_ops<tilec::Blocked2D<64, 8, 256, 2, true>, __half>(h, index, smem);
  rank2_ops<tilec::Blocked2D<128, 64, 256, 4>, int>(i, index, smem);
  tilec::device_print("b", 3, b[0]);
  tilec::device_print("u", u[0]);
}

__global__ void __launch_bounds__(128)
    instantiate_indexed(float *f, __half *h, int *i, int *counts) {
  __shared__ alignas(16) unsigned char smem[16384];
  using P = tilec::Blocked2D<16, 64, 128, 4>;
  indexed_ops<tilec::Blocked1D<256, 128, 4>, 256, 1, float, int>(f, counts, smem);
  indexed_ops<tilec::Blocked1D<32, 128, 4>, 32, 1, __half, uint8_t>(h, counts, smem); // copies
  indexed_ops<P, 64, 1, float, int64_t>(f, counts, smem); // along the rows
  indexed_ops<P, 16, 64, int, uint16_t>(i, counts, smem); // along the columns
  indexed_ops<tilec::Slice<P, 1>, 16, 1, int, bool>(i, counts, smem);
  indexed_ops<tilec::Slice<P, 0>, 64, 1, float, uint64_t>(f, counts, smem);
}

__global__ void random_numbers(uint4 *words, float *u, float *n, float4 *u4, float4 *n4,
                               uint32_t *w, unsigned long long seed) {
  const unsigned offset = blockIdx.x * blockDim.x + threadIdx.x;
  words[offset] = tilec::philox(offset, 1u, 2u, 3u, 4u, 5u);
  w[offset] = tilec::randint(seed, offset);
  u[offset] = tilec::rand(seed, offset);
  n[offset] = tilec::randn(seed, offset);
  u4[offset] = tilec::rand4x(seed, offset);
  n4[offset] = tilec::randn4x(seed, offset);
  words[offset + 1] = tilec::randint4x(seed, offset);
}

// fp8 conversions: cvt.*.e4m3x2 / .e5m2x2 on sm_89 and newer, CUDA's software path before.
// (fp8 tl::dot needs sm_89: tests/nvrtc checks that sm_80 refuses it.)
__global__ void fp8_casts(const float *f, tl::float8_e4m3 *e4, tl::float8_e5m2 *e5, float *out) {
  const int i = threadIdx.x;
  e4[i] = tilec::cast<tl::float8_e4m3>(f[i]);
  e5[i] = tilec::cast<tl::float8_e5m2>(tilec::cast<double>(f[i]));
  out[i] = tilec::cast<float>(e4[i]) + tilec::cast<float>(tilec::cast<tl::half>(e5[i])) +
           float(tilec::cast<int>(e4[i])) + tilec::cast<float>(tilec::cast<tl::float8_e5m2>(e4[i]));
}

// WARPS_DOWN: the warps take the rows before a row is split over warps.
static_assert(tilec::Blocked2D<8, 4096, 128, 8, true>::W0 == 4 &&
              tilec::Blocked2D<8, 4096, 128, 8, true>::W1 == 1 &&
              tilec::Blocked2D<8, 4096, 128, 8, true>::R0 == 2 &&
              tilec::Blocked2D<8, 4096, 128, 8, true>::R1 == 16);
static_assert(tilec::Blocked2D<8, 4096, 128, 8>::W0 == 1 && tilec::Blocked2D<8, 4096, 128, 8>::W1 == 4);
static_assert(tilec::Blocked2D<2, 4096, 128, 4, true>::W0 == 2 &&
              tilec::Blocked2D<2, 4096, 128, 4, true>::W1 == 2);
static_assert(tilec::Blocked2D<64, 8, 256, 2, true>::W1 == 1 &&
              tilec::Blocked2D<64, 8, 256, 2, true>::W0 == 8);

// Promotion of template element types follows the interpreter's (tl/promotion.h): bfloat16
// with an integer or bool computes in float; half with an integer stays half.
static_assert(tilec::is_same_v<tilec::promote_t<tl::bfloat16, int>, float>);
static_assert(tilec::is_same_v<tilec::promote_t<bool, tl::bfloat16>, float>);
static_assert(tilec::is_same_v<tilec::promote_t<tl::bfloat16, tl::bfloat16>, tl::bfloat16>);
static_assert(tilec::is_same_v<tilec::promote_t<tl::half, int>, tl::half>);
static_assert(tilec::is_same_v<tilec::promote_t<int, int64_t>, int64_t>);
// The check kernels over a type parameter make where the tile-with-scalar rule depends on it.
static_assert(tilec::scalar_keeps_tile_type<tl::half, float>);
static_assert(tilec::scalar_keeps_tile_type<int64_t, int>);
static_assert(!tilec::scalar_keeps_tile_type<int, int64_t>);
static_assert(!tilec::scalar_keeps_tile_type<int, float>);
static_assert(!tilec::scalar_keeps_tile_type<bool, int>);
// `/` of 16-bit float tiles computes in float; narrow scalars widen as C++'s do.
static_assert(tilec::is_same_v<tilec::quotient_t<tl::half>, float>);
static_assert(tilec::is_same_v<tilec::quotient_t<tl::bfloat16>, float>);
static_assert(tilec::is_same_v<tilec::quotient_t<int8_t>, int8_t>);
static_assert(tilec::is_same_v<tilec::widen_t<tl::half>, float>);
static_assert(tilec::is_same_v<tilec::widen_t<int8_t>, int>);
static_assert(tilec::is_same_v<tilec::widen_t<bool>, int>);
static_assert(tilec::is_same_v<tilec::widen_t<int64_t>, int64_t>);
static_assert(tilec::is_same_v<tilec::widen_t<double>, double>);

// `%` of a template element type (tilec::mod): integers and every float type.
__global__ void mod_of_every_type(int *i, float *f, double *d, tl::half *h, tl::bfloat16 *b) {
  i[0] = tilec::mod(i[1], i[2]);
  f[0] = tilec::mod(f[1], f[2]);
  d[0] = tilec::mod(d[1], d[2]);
  h[0] = tilec::mod(h[1], h[2]);
  b[0] = tilec::mod(b[1], b[2]);
}
