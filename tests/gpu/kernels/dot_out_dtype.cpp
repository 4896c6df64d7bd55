// tl::dot with Triton's out_dtype (tl::dot<Out>): half results from half and fp8 operands,
// once and accumulated over a K loop in a half accumulator; a float out_dtype is the default.
#include <tilec/tl.h>

// c = a @ b (in half) for one [BM, BN] block of a [m, k] x [k, n] product, K in steps of BK;
// the accumulator is a half tile, rounded once per step as Triton's fp16 out_dtype does.
template <int BM, int BN, int BK, class T>
TILEC_KERNEL void half_out_loop(const T *a, const T *b, tl::half *c, int m, int n, int k) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk);
  auto b_ptrs = b + tl::expand_dims<1>(rk) * n + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<tl::half, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto a_in = (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k - k0);
    auto b_in = (tl::expand_dims<1>(rk) < k - k0) && (tl::expand_dims<0>(rn) < n);
    auto av = tl::load(a_ptrs, a_in, 0);
    auto bv = tl::load(b_ptrs, b_in, 0);
    acc = tl::dot<tl::half>(av, bv, acc);
    a_ptrs += BK;
    b_ptrs += BK * n;
  }
  tl::store(c + tl::expand_dims<1>(rm) * n + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rn) < n));
}

// One [BM, BK] x [BK, BN] product without an accumulator: in half, and in float as
// tl::dot<float> (the default out_dtype).
template <int BM, int BN, int BK>
TILEC_KERNEL void half_out_once(const tl::half *a, const tl::half *b, tl::half *c, float *d) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto av = tl::load(a + tl::expand_dims<1>(rm) * BK + tl::expand_dims<0>(rk));
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
  auto offs = tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn);
  tl::store(c + offs, tl::dot<tl::half>(av, bv));
  tl::store(d + offs, tl::dot<float>(av, bv));
}
