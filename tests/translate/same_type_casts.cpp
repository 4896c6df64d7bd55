// A dot loop whose operands are loads cast to a type parameter (Mamba's `.to(dot_dtype)`):
// a copy of the loop for the specializations where the types are one, without the casts, so
// that its loads are pipelined (cp.async stages, or the copy engine); the loop as written
// for the others. A cast between known types, or from T to T, is left alone.
#include <tilec/tl.h>

template <class T, class DT, int BM, int BN, int BK>
TILEC_KERNEL void mm(const T *a, const T *b, float *c, int M, int N, int K) {
  auto offs_m = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto offs_n = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto offs_k = k + tl::arange<0, BK>();
    auto x = tl::cast<DT>(tl::load(a + tl::expand_dims<1>(offs_m) * K + tl::expand_dims<0>(offs_k)));
    auto y = tl::cast<DT>(tl::load(b + tl::expand_dims<1>(offs_k) * N + tl::expand_dims<0>(offs_n)));
    acc += tl::dot(x, y);
  }
  tl::store(c + tl::expand_dims<1>(offs_m) * N + tl::expand_dims<0>(offs_n), acc);
}

// With strides as arguments and rows bounded per program (Mamba's SSD products): the copy
// without the casts gets the unit-stride copies; the loop kept for the other types does not.
template <class T, class DT, int BM, int BN, int BK>
TILEC_KERNEL void strided(const T *a, const T *b, float *c, int seqlen, int chunk, int K, int sam,
                          int sak, int sbk, int sbn) {
  int limit = tl::minimum(chunk, seqlen - tl::program_id(2) * chunk);
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = tl::cast<DT>(tl::load(a + tl::expand_dims<1>(rm) * sam + tl::expand_dims<0>(k + rk) * sak,
                                   tl::expand_dims<1>(rm) < limit, 0.0f));
    auto y = tl::cast<DT>(tl::load(b + tl::expand_dims<1>(k + rk) * sbk + tl::expand_dims<0>(rn) * sbn,
                                   tl::expand_dims<0>(rn) < limit, 0.0f));
    acc += tl::dot(x, y);
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}

// IR-LABEL: IR after pipeline
// IR:       = if constexpr(tilec::is_same_v<T, DT>)
// IR:         = for "<" pipelined
// IR:           = load async producer
// IR:           = load async producer
// IR:           :acc = dot "tf32" %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}:acc
// IR:         = for "<" %
// IR:           :x = cast
// IR:           :y = cast
// CU:       if constexpr (tilec::is_same_v<T, DT>) {

// IR-LABEL: kernel @strided
// IR:       = if constexpr(tilec::is_same_v<T, DT>)
// IR:       = if constexpr(sak_is_1 && sbn_is_1)
// IR:       = if constexpr(sam_is_1 && sbk_is_1)
// IR:       :x = cast
// IR-NOT:   _is_1
