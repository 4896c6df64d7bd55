// A tile with a scalar (rule 0 of tl/promotion.h): an int32 offset tile plus an int64 scalar
// is an int64 tile, so offsets built on a widened program id (FlagGems' `pid.to(tl.int64)`)
// do not wrap at 2^31. Over a type parameter the rule may depend on the instantiation (a T
// tile times a float is float when T is an integer type): the generated CUDA keeps T and
// asserts, once per pair of types at the top of the kernel and in the launcher, that the
// instantiation keeps it.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void wide_offsets(const float *x, float *out, int64_t n) {
  int64_t pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask), mask);
}

template <class T, int BLOCK>
TILEC_KERNEL void scale(const T *x, T *out, float s, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  if (n > BLOCK) {
    tl::store(out + offs, v * s, mask);
  } else {
    tl::store(out + offs, v * s + 1, mask);
  }
}

// `/` of tiles over a type parameter computes in tilec::quotient_t<T> (float for half and bfloat16,
// as the interpreter does), and T scalars in tilec::widen_t<T> (C++'s conversions).
template <class T, int BLOCK>
TILEC_KERNEL void divide(const T *x, const T *y, T *out, T a, T b, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto q = tl::load(x + offs, mask, 1) / tl::load(y + offs, mask, 1);
  T ab = a * b;
  tl::store(out + offs, q + ab, mask);
}

// IR-LABEL: kernel @wide_offsets
// IR:       :offs = binary "+" %{{[0-9]+}}, %{{[0-9]+}} : tile<int64_t, BLOCK>
// IR-LABEL: kernel @scale
// IR:       static_assert "line 23: with this T, a tile of it combined with a scalar of float {{.*}}" [tilec::scalar_keeps_tile_type<T, float>]
// IR-NEXT:  static_assert "line 25: with this T, a tile of it combined with a scalar of int {{.*}}" [tilec::scalar_keeps_tile_type<T, int>]
// IR-NOT:   static_assert
// IR:       binary "*" %{{[0-9]+}}:v, %{{[0-9]+}} : tile<T, BLOCK>

// CU-LABEL: wide_offsets(
// CU:       int64_t offs[L0::ELEMS];
// CU:       offs[i] = ((pid * tilec::cast<int64_t>(BLOCK)) + tilec::cast<int64_t>(L0::coord(tid, i)));
// CU-LABEL: scale(
// CU:       static_assert(tilec::scalar_keeps_tile_type<T, float>, "line 23:
// CU:       static_assert(tilec::scalar_keeps_tile_type<T, int>, "line 25:
// CU-NOT:   static_assert(tilec::scalar_keeps

// H-LABEL: inline void scale(
// H:       static_assert(tilec::scalar_keeps_tile_type<T, float>, "scale: line 23:
// H-NEXT:  static_assert(tilec::scalar_keeps_tile_type<T, int>, "scale: line 25:

// CU-LABEL: divide(
// CU:       const T ab = tilec::cast<T>((tilec::cast<tilec::widen_t<T>>(a) * tilec::cast<tilec::widen_t<T>>(b)));
// CU:       tilec::quotient_t<T> q[L0::ELEMS];
// CU:         q[i] = tilec::fdiv(tilec::cast<tilec::quotient_t<T>>(

// AOT:     scale<float, 128,
// AOT:     scale<tl::half, 128,
