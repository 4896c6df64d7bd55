// unit-stride-accesses: a load or store whose pointers step along their last dimension by a
// kernel argument gets a copy for that argument equal to 1, which the analyses see as
// contiguous. A store's copy is chosen by a uniform run-time branch; a load's by a
// specialization fact (`if constexpr (K_is_1)`), which the launcher computes from the
// argument, so that a specialization holds only the copy it runs.
#include <tilec/tl.h>

// Tutorial 03's epilogue as written: stride_cn is an argument.
template <int BM, int BN>
TILEC_KERNEL void epilogue(const float *x, float *c, int M, int N, int stride_cm, int stride_cn) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto cols = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < M) & (tl::expand_dims<0>(cols) < N);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols), mask, 0.0f);
  tl::store(c + tl::expand_dims<1>(rows) * stride_cm + tl::expand_dims<0>(cols) * stride_cn,
            v * 2.0f, mask);
}
// IR-LABEL: kernel @epilogue<int BM, int BN>
// IR:       [[ONE:%[0-9]+]] = constant [1] : int
// IR-NEXT:  [[COND:%[0-9]+]] = binary "==" %5:stride_cn, [[ONE]] : bool
// IR-NEXT:  if [[COND]]
// IR-NEXT:  {
// IR:         [[PROD:%[0-9]+]] = binary "*" %{{[0-9]+}}, %{{[0-9]+}} : tile<int, 1, BN>
// IR:         store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}:mask
// IR-NEXT:  } else {
// IR-NEXT:    store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}:mask

// CU-LABEL: epilogue(
// CU-NOT:   stride_cn_is_1
// CU:       // unit_stride_accesses.cpp:{{[0-9]+}}: stride_cn == 1: the store's pointers are contiguous along its rows
// CU-NEXT:  if ((stride_cn == 1)) {
// CU:         // BN consecutive addresses
// CU:       } else {
// CU:         // 1 consecutive addresses

// A 1-D store with its stride, and one whose rows alone have a stride (already contiguous):
// only the first is versioned.
template <int B>
TILEC_KERNEL void strided_rows(const float *x, float *y, int n, int stride_y, int ld) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  tl::store(y + offs * stride_y, v, offs < n);
  tl::store(y + tl::program_id(1) * ld + offs, v, offs < n);
}
// IR-LABEL: kernel @strided_rows<int B>
// IR:       binary "==" %3:stride_y, {{.*}} : bool
// IR-NEXT:  if
// IR:       } else {
// IR-NEXT:    store
// IR-NOT:   if
// IR:       store
// IR-NOT:   store

// A load over the middle axis of [M, N, K] (FlagGems' argmax): K is 1 for a 2-D input. The
// load's value is the branch's result; the loop has no tl::dot, so its load is versioned.
// `+ tl::program_id(1)` is a term whose divisibility nothing tells: the K_is_1 arm also asks
// it at run time to be a multiple of the elements in 16 bytes, and its copy reads it as one,
// so that the rows are aligned 16-byte runs there. The program id is 0 in the specializations
// for a grid of one program along y (`zero_if_grid_1`, grid_y_is_1), where that check is
// decided at compile time: those hold only the contiguous copy.
template <int BM, int BN>
TILEC_KERNEL void middle_max(const float *x, float *out, int M, int N, int K) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto best = tl::full<float, BM>(-INFINITY);
  for (int n0 = 0; n0 < N; n0 += BN) {
    auto cols = n0 + tl::arange<0, BN>();
    auto offs = tl::expand_dims<1>(rows) * N * K + tl::expand_dims<0>(cols) * K + tl::program_id(1);
    auto mask = (tl::expand_dims<1>(rows) < M) & (tl::expand_dims<0>(cols) < N);
    best = tl::maximum(best, tl::max<1>(tl::load(x + offs, mask, -INFINITY)));
  }
  tl::store(out + rows, best, rows < M);
}
// IR-LABEL: kernel @middle_max<int BM, int BN>
// IR:         [[PID:%[0-9]+]] = program_id zero_if_grid_1 axis=1 : int
// IR:         [[V:%[0-9]+]]:loaded = if constexpr(K_is_1) %{{[0-9]+}}
// IR-NEXT:    {
// IR-NEXT:      [[FOUR:%[0-9]+]] = constant [4] : int
// IR-NEXT:      [[REM:%[0-9]+]] = binary "%" [[PID]], [[FOUR]] : int
// IR-NEXT:      [[ZERO:%[0-9]+]] = constant [0] : int
// IR-NEXT:      [[ALIGNED:%[0-9]+]] = binary "==" [[REM]], [[ZERO]] : bool
// IR:           [[W:%[0-9]+]] = if [[ALIGNED]], %{{[0-9]+}}
// IR-NEXT:      {
// IR-NEXT:        [[HINT:%[0-9]+]] = hint "multiple_of" [[PID]] [4] : int
// IR:             binary "+" %{{[0-9]+}}, [[HINT]]
// IR:             [[FAST:%[0-9]+]] = load
// IR-NEXT:        yield [[FAST]]
// IR-NEXT:      } else {
// IR-NEXT:        [[SLOW:%[0-9]+]] = load
// IR-NEXT:        yield [[SLOW]]
// IR-NEXT:      }
// IR-NEXT:      yield [[W]]
// IR-NEXT:    } else {
// IR-NEXT:      [[GENERAL:%[0-9]+]] = load
// IR-NEXT:      yield [[GENERAL]]
// IR:         reduce {{.*}}[[V]]

// CU-LABEL: middle_max(
// CU:       constexpr bool K_is_1 = (DIV16 >> 5) & 1u; // K == 1 in this specialization
// CU-NEXT:  constexpr bool grid_y_is_1 = (DIV16 >> 62) & 1u; // a grid of one program along y in this specialization
// CU:       const int [[PID:t[0-9]+]] = (grid_y_is_1 ? 0 : int(blockIdx.y));
// CU:       // unit_stride_accesses.cpp:{{[0-9]+}}: K_is_1: the load's pointers are contiguous along its rows
// CU-NEXT:  float [[R:[a-z_0-9]+]][L{{[0-9]+}}::ELEMS];
// CU-NEXT:  if constexpr (K_is_1) {
// CU:         // unit_stride_accesses.cpp:{{[0-9]+}}: (tl::program_id(1)) % 4 == 0: the load's pointers are contiguous along its rows
// CU:         if ((([[PID]] % 4) == 0)) {
// CU:           offs_1[i] = ({{.*}} * 1)) + [[PID]]);
// CU:           // BN consecutive addresses, aligned to tilec::gcd((x_aligned ? 16 : 4), tilec::gcd(tilec::gcd((N_div16 ? 16 : 1), tilec::pow2_factor(BN)), 4) * 4) bytes
// CU:         } else {
// CU:           // 1 consecutive addresses, aligned to 4 bytes
// CU:       } else {
// CU:         // 1 consecutive addresses, aligned to 4 bytes

// The launchers compute each fact the kernel uses, as bits of the DIV16 mask past the
// arguments' own (bit 5 + 4 for K, 30 for a grid of one program along y); a kernel whose IR
// uses none keeps its key.
// H-LABEL: inline void epilogue(
// H:       key.push(tilec::div16_mask(x, c, M, N, stride_cm, stride_cn));
// H-LABEL: inline void middle_max(
// H:       key.push(tilec::div16_mask(x, out, M, N, K)
// H-NEXT:      | tilec::one_fact(K, 5)
// H-NEXT:      | tilec::grid_fact(grid.y, 62));

// A dot loop's loads are the pipeline's: not versioned (the launcher checks a column stride
// for 1 before it encodes a tensor map instead).
template <int BM, int BN, int BK>
TILEC_KERNEL void strided_dot(const tl::half *a, const tl::half *b, float *c, int K, int sk) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto rk = k + tl::arange<0, BK>();
    auto x = tl::load(a + tl::expand_dims<1>(rm) * K + tl::expand_dims<0>(rk) * sk);
    auto y = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
    acc = tl::dot(x, y, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
// IR-LABEL: kernel @strided_dot<int BM, int BN, int BK>
// IR-NOT:   "=="
// IR:       dot
