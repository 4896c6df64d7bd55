// Triton's out_dtype: tl::dot<tl::half> on half (or fp8) operands sums in float and rounds
// the result to half, so the IR widens a half accumulator, multiplies as any dot does and
// narrows the result; tl::dot<float> is the default product.
#include <tilec/tl.h>

template <int BM, int BN, int BK>
TILEC_KERNEL void half_out(const tl::half *a, const tl::half *b, tl::half *c, float *d, int k) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk);
  auto b_ptrs = b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<tl::half, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    acc = tl::dot<tl::half>(tl::load(a_ptrs), tl::load(b_ptrs), acc);
    a_ptrs += BK;
    b_ptrs += BK * BN;
  }
  auto offs = tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn);
  tl::store(c + offs, acc);
  auto a0 = tl::load(a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk));
  auto b0 = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
  tl::store(d + offs, tl::dot<float>(a0, b0));
}

// A template element type is checked where the kernel is compiled (16- or 8-bit floats).
template <class T, int B>
TILEC_KERNEL void generic_half_out(const T *a, tl::half *c) {
  auto offs = tl::expand_dims<1>(tl::arange<0, B>()) * B + tl::expand_dims<0>(tl::arange<0, B>());
  auto x = tl::load(a + offs);
  tl::store(c + offs, tl::dot<tl::half>(x, x));
}

// IR-LABEL: kernel @half_out
// IR:       %[[ACC:[0-9]+]] = cast %{{[0-9]+}}:acc : tile<float, BM, BN>
// IR:       %[[D:[0-9]+]] = dot "tf32" %{{[0-9]+}}, %{{[0-9]+}}, %[[ACC]] : tile<float, BM, BN>
// IR:       = cast %[[D]] : tile<tl::half, BM, BN>
// IR:       yield
// IR:       = dot "tf32" %{{[0-9]+}}:a0, %{{[0-9]+}}:b0, %{{[0-9]+}} : tile<float, BM, BN>
// IR-NOT:   cast
// IR:       store
// CU:       tl::half acc[L0::ELEMS];
// CU:       [[SUM:t[0-9]+]][i] = tilec::cast<float>(acc[i]);
// CU-NEXT:  tilec::dot_smem<{{.*}}>(a_{{[0-9]+}}, b_{{[0-9]+}}, [[SUM]], tid);
// CU:       acc_{{[0-9]+}}[i] = tilec::cast<tl::half>([[SUM]][i]);
// CU-LABEL: generic_half_out(
// CU:       static_assert(sizeof(T) <= 2, "tl::dot<tl::half> needs half or fp8 operands");
// H:        static_assert(sizeof(T) <= 2, "generic_half_out: tl::dot<tl::half> needs half or fp8 operands");
