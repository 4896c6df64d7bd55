// unit-stride-dot-loops on a GPU with the copy engine (sm_90a): a dot loop whose loads are
// affine goes by tensor maps whatever its strides, so it gets no copies; but one whose masks
// bound a program's own rows (`rows < limit`, with limit computed per program, as Mamba's SSD
// chunks are) cannot go to the copy engine, and gets its unit-stride copies as on sm_80.
#include <tilec/tl.h>

template <int BM, int BN, int BK>
TILEC_KERNEL void chunk_mm(const tl::half *a, const tl::half *b, float *c, int seqlen, int chunk,
                           int K, int sam, int sak, int sbk, int sbn) {
  int limit = tl::minimum(chunk, seqlen - tl::program_id(2) * chunk);
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * sam + tl::expand_dims<0>(rk) * sak;
  auto b_ptrs = b + tl::expand_dims<1>(rk) * sbk + tl::expand_dims<0>(rn) * sbn;
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto av = tl::load(a_ptrs, tl::expand_dims<1>(rm) < limit, 0.0f);
    auto bv = tl::load(b_ptrs, tl::expand_dims<0>(rn) < limit, 0.0f);
    acc = tl::dot(av, bv, acc);
    a_ptrs += BK * sak;
    b_ptrs += BK * sbk;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}

template <int BM, int BN, int BK>
TILEC_KERNEL void matrix_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K,
                            int sam, int sak, int sbk, int sbn) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * sam + tl::expand_dims<0>(rk) * sak;
  auto b_ptrs = b + tl::expand_dims<1>(rk) * sbk + tl::expand_dims<0>(rn) * sbn;
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto av = tl::load(a_ptrs, tl::expand_dims<1>(rm) < M, 0.0f);
    auto bv = tl::load(b_ptrs, tl::expand_dims<0>(rn) < N, 0.0f);
    acc = tl::dot(av, bv, acc);
    a_ptrs += BK * sak;
    b_ptrs += BK * sbk;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
// IR-LABEL: kernel @chunk_mm<int BM, int BN, int BK>
// IR:       = if constexpr(sak_is_1 && sbn_is_1)
// IR-LABEL: kernel @matrix_mm<int BM, int BN, int BK>
// IR-NOT:   if constexpr
