// unit-stride-dot-loops: a loop with a tl::dot whose operand loads step by kernel arguments
// gets copies for those arguments equal to 1 (specialization facts), one per way of making
// every such load contiguous, the last dimension first. In each copy the pipeline copies the
// operands 16 bytes at a time; the original loop stays for the other launches. Run for sm_80
// (no copy engine), where tutorial 03 as written needs it.
#include <tilec/tl.h>

// Tutorial 03 as written: every stride an argument. A is contiguous along K when stride_ak is
// 1 (or along M when stride_am is), B along N or K: four copies and the loop as written.
template <int BM, int BN, int BK>
TILEC_KERNEL void strided_mm(const tl::half *a, const tl::half *b, float *c, int K, int sam,
                             int sak, int sbk, int sbn) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * sam + tl::expand_dims<0>(rk) * sak;
  auto b_ptrs = b + tl::expand_dims<1>(rk) * sbk + tl::expand_dims<0>(rn) * sbn;
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = tl::dot(tl::load(a_ptrs), tl::load(b_ptrs), acc);
    a_ptrs += BK * sak;
    b_ptrs += BK * sbk;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
// IR-LABEL: kernel @strided_mm<int BM, int BN, int BK>
// IR:       %{{[0-9]+}}:acc = if constexpr(sak_is_1 && sbn_is_1) %{{[0-9]+}}:acc
// IR-NEXT:  {
// IR-NEXT:    [[ONE:%[0-9]+]] = constant [1] : int
// IR-NEXT:    [[ONE2:%[0-9]+]] = constant [1] : int
// IR:         binary "*" %{{[0-9]+}}, [[ONE]] : tile<int, 1, BK>
// IR:         for "<"
// IR:         dot
// IR:       } else {
// IR-NEXT:    %{{[0-9]+}}:acc = if constexpr(sak_is_1 && sbk_is_1)
// IR:         } else {
// IR-NEXT:      %{{[0-9]+}}:acc = if constexpr(sam_is_1 && sbn_is_1)
// IR:           } else {
// IR-NEXT:        %{{[0-9]+}}:acc = if constexpr(sam_is_1 && sbk_is_1)
// IR:             } else {
// IR-NEXT:          %{{[0-9]+}}:acc, %{{[0-9]+}}:a_ptrs, %{{[0-9]+}}:b_ptrs = for "<"
// IR:             yield
// IR-NOT:         if constexpr

// CU-LABEL: strided_mm(
// CU:       // unit_stride_dot_loops.cpp:{{[0-9]+}}: sak == 1 && sbn == 1: the tl::dot loop's loads are contiguous (a copy for this specialization)
// CU:       if constexpr (sak_is_1 && sbn_is_1) {
// CU:         // to shared memory (cp.async); BK consecutive addresses
// CU:         // to shared memory (cp.async); BN consecutive addresses
// CU:       if constexpr (sak_is_1 && sbk_is_1) {
// CU:         b_stages_1: PIPELINE_STAGES stage buffers of [BN, BK]
// CU:         // to shared memory (cp.async); BK consecutive addresses
// CU:         // to shared memory (cp.async); BK consecutive addresses
// CU:       } else {
// CU:         // to shared memory (cp.async); 1 consecutive addresses
// The launcher computes the facts: bits past the 8 arguments', numbered among the integers
// whose facts the kernel asks about (K's is not: sam at 8, sak at 9).
// H-LABEL: strided_mm
// H:       | tilec::one_fact(sam, 8)
// H-NEXT:  | tilec::one_fact(sak, 9)

// vLLM's fused MoE: A's rows gathered through loaded token ids (never contiguous along M),
// the expert's weights at a loaded offset, stored [E, N, K] (stride_bk 1) or [E, K, N].
template <int BM, int BN, int BK>
TILEC_KERNEL void gathered_mm(const tl::half *a, const tl::half *b, float *c, const int *ids,
                              const int *experts, int K, int64_t sam, int64_t sak,
                              int64_t sbe, int64_t sbk, int64_t sbn) {
  auto rows = tl::load(ids + tl::program_id(0) * BM + tl::arange<0, BM>());
  int64_t e = tl::load(experts + tl::program_id(0));
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rows) * sam + tl::expand_dims<0>(rk) * sak;
  auto b_ptrs = b + e * sbe + tl::expand_dims<1>(rk) * sbk + tl::expand_dims<0>(rn) * sbn;
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = tl::dot(tl::load(a_ptrs), tl::load(b_ptrs), acc);
    a_ptrs += BK * sak;
    b_ptrs += BK * sbk;
  }
  tl::store(c + tl::expand_dims<1>(rows) * BN + tl::expand_dims<0>(rn), acc);
}
// IR-LABEL: kernel @gathered_mm<int BM, int BN, int BK>
// IR-NOT:   sam_is_1
// IR:       if constexpr(sak_is_1 && sbn_is_1)
// IR:       if constexpr(sak_is_1 && sbk_is_1)
// IR-NOT:   sam_is_1

// Operands contiguous as written (unit strides are literals): nothing to version.
template <int BM, int BN, int BK>
TILEC_KERNEL void contiguous_mm(const tl::half *a, const tl::half *b, float *c, int K, int lda,
                                int ldb) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto rk = k + tl::arange<0, BK>();
    auto x = tl::load(a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk));
    auto y = tl::load(b + tl::expand_dims<1>(rk) * ldb + tl::expand_dims<0>(rn));
    acc = tl::dot(x, y, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
// IR-LABEL: kernel @contiguous_mm<int BM, int BN, int BK>
// IR-NOT:   if constexpr
// IR:       dot
