// tl::inline_asm_elementwise: PTX on tiles (float, half, integers, a float's bits in "r"), a
// tile with scalars, rank-2 arguments broadcast together, scalar and argument-less asm. Each
// call has a host fallback that computes what the PTX does, bit for bit, so the interpreter
// runs the kernels too.
#include <tilec/tl.h>

#include <bit>
#include <cmath>

namespace asm_host { // what the PTX computes, for the interpreter
inline float fma_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline tl::half neg(tl::half h) { return tl::half(-float(h)); }
inline unsigned float_bits(float v) { return std::bit_cast<unsigned>(v); }
inline unsigned bit_reverse(unsigned v) {
  unsigned r = 0;
  for (int k = 0; k < 32; ++k)
    r |= ((v >> k) & 1u) << (31 - k);
  return r;
}
inline int add(int a, int b) { return a + b; }
inline unsigned no_sm() { return 0; }
} // namespace asm_host

template <int B>
TILEC_KERNEL void asm_elementwise(const float *x, const tl::half *h, float *fma_out,
                                  tl::half *neg_out, unsigned *bits_out, unsigned *brev_out,
                                  int *sums, unsigned *sm, int n, int k) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto m = offs < n;
  auto v = tl::load(x + offs, m);
  // A tile, a scalar literal and the tile again: "f" registers.
  auto f = tl::inline_asm_elementwise<float>("fma.rn.f32 $0, $1, $2, $3;", "=f,f,f,f", v, 0.5f,
                                             v, tl::host_fallback(asm_host::fma_rn));
  tl::store(fma_out + offs, f, m);
  // Halves in "h" registers (their bits).
  auto hn = tl::inline_asm_elementwise<tl::half>("neg.f16 $0, $1;", "=h,h", tl::load(h + offs, m),
                                                 tl::host_fallback(asm_host::neg));
  tl::store(neg_out + offs, hn, m);
  // A float's bits in an "r" register, then integer PTX on them.
  auto bits = tl::inline_asm_elementwise<unsigned>("mov.b32 $0, $1;", "=r,r", v,
                                                   tl::host_fallback(asm_host::float_bits));
  tl::store(bits_out + offs, bits, m);
  tl::store(brev_out + offs,
            tl::inline_asm_elementwise<unsigned>("brev.b32 $0, $1;", "=r,r", bits,
                                                 tl::host_fallback(asm_host::bit_reverse)),
            m);
  // Scalars only: a scalar result.
  int s = tl::inline_asm_elementwise<int>("add.s32 $0, $1, $2;", "=r,r,r", k, tl::program_id(0),
                                          tl::host_fallback(asm_host::add));
  tl::store(sums + tl::program_id(0), s);
  // No arguments, with effects: the SM the program runs on (0 in the interpreter).
  unsigned where = tl::inline_asm_elementwise<unsigned, false>(
      "mov.u32 $0, %smid;", "=r", tl::host_fallback(asm_host::no_sm));
  tl::store(sm + tl::program_id(0), where);
}

// Rank-2: a column [M, 1] and a row [1, N] broadcast to [M, N].
template <int M, int N>
TILEC_KERNEL void asm_outer_sum(const int *col, const int *row, int *out) {
  auto c = tl::load(col + tl::expand_dims<1>(tl::arange<0, M>()));
  auto r = tl::load(row + tl::expand_dims<0>(tl::arange<0, N>()));
  auto sum = tl::inline_asm_elementwise<int>("add.s32 $0, $1, $2;", "=r,r,r", c, r,
                                             tl::host_fallback(asm_host::add));
  auto offs = tl::expand_dims<1>(tl::arange<0, M>()) * N + tl::expand_dims<0>(tl::arange<0, N>());
  tl::store(out + offs, sum);
}
