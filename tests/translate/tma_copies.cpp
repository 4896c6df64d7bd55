// Copies by the copy engine (tma-copies, sm_90a): a pipelined tl::dot loop whose operands are
// whole boxes of row-major matrices, masked exactly to the matrix, gets tensor maps, an
// mbarrier per stage and a phase; the launcher encodes the maps from its own arguments. The
// same box through pointer tiles spelled out gets the same. Loads that are not whole boxes
// (rows that wrap around with `% M`, a bound the launcher cannot compute) stay cp.async.
#include <tilec/tl.h>

// Triton's tutorial 09 spelling: every operand through a descriptor.
template <int BM, int BN, int BK>
TILEC_KERNEL void desc_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, n0}, acc);
}

// IR-LABEL: kernel @desc_mm<int BM, int BN, int BK>
// IR:       param [5] : int
// IR-NEXT:  tma_map %0:a, %3:M, %5:K, %5:K [BM] [BK]
// IR-NEXT:  tma_map %1:b, %5:K, %4:N, %4:N [BK] [BN]
// IR:       [[BARS:%[0-9]+]]:landed = mbarrier_ring : smem<int64_t, PIPELINE_STAGES>
// IR:       tma_copy {{.*}}, [[BARS]]:landed, %{{[0-9]+}}:stage, %{{[0-9]+}}:m0, %{{[0-9]+}}:k_ahead [0]
// IR:       tma_copy {{.*}}, [[BARS]]:landed, %{{[0-9]+}}:stage, %{{[0-9]+}}:k_ahead, %{{[0-9]+}}:n0 [1]
// IR-NEXT:  mbarrier_arrive [[BARS]]:landed, %{{[0-9]+}}:stage
// IR:       async_wait [[BARS]]:landed [PIPELINE_STAGES - 2]
// IR-NEXT:  mbarrier_wait [[BARS]]:landed, %{{[0-9]+}}:read_stage, [[PHASE:%[0-9]+]]:phase
// IR-NEXT:  barrier
// IR:       tma_copy {{.*}}, [[BARS]]:landed, %{{[0-9]+}}:write_stage, {{.*}} [0]
// IR:       mbarrier_arrive [[BARS]]:landed, %{{[0-9]+}}:write_stage
// IR:       binary "^" [[PHASE]]:phase
// IR:       async_wait [[BARS]]:landed [0]
// IR-NEXT:  barrier
// IR-NEXT:  mbarrier_inval [[BARS]]:landed

// CU-LABEL: desc_mm(const tl::half* a, const tl::half* b, float* c, int M, int N, int K, const __grid_constant__ tilec::TmaMap a_map, const __grid_constant__ tilec::TmaMap b_map, const unsigned tma_maps_live, const int programs) {
// A launch that encoded every map runs a specialization that knows it (the all_maps_encoded
// fact, bit 29 of DIV16): there the flags below are constant, and only the copy engine's path
// is compiled.
// CU:       constexpr bool all_maps_encoded = (DIV16 >> 61) & 1u; // every tensor map encoded in this specialization
// CU:       __shared__ unsigned long long landed[PIPELINE_STAGES];
// CU-NEXT:  const bool [[A_TMA:tile_stages_by_tma]] = tilec::kTmaAvailable && tilec::tma_tile_ok<tilec::SmemTile<BM, BK, tl::half>>(0) && (all_maps_encoded || ((tma_maps_live >> 0) & 1u));
// CU-NEXT:  const bool [[B_TMA:tile_stages_1_by_tma]] = tilec::kTmaAvailable && tilec::tma_tile_ok<tilec::SmemTile<BK, BN, tl::half>>({{.*}}) && (all_maps_encoded || ((tma_maps_live >> 1) & 1u));
// CU-NEXT:  const bool landed_in_use = [[A_TMA]] || [[B_TMA]];
// CU-NEXT:  const bool landed_all_tma = [[A_TMA]] && [[B_TMA]];
// The copies below are the loop without the producer warpgroup (warp_specialize.cpp shows the
// one with it): TMA from thread 0 when the map is encoded, else cp.async.
// CU:       if ([[A_TMA]]) {
// CU-NEXT:    if (tid == 0) tilec::tma_load_tile<tilec::SmemTile<BM, BK, tl::half>>({{tile_next[_0-9]*}}, &a_map, {{m0[_0-9]*}}, [[AHEAD:k_ahead[_0-9]*]], &landed[[[STAGE:stage[_0-9]*]]]);
// CU-NEXT:  } else {
// CU:         tilec::copy_tile_async<
// CU:       if (landed_in_use && tid == 0) tilec::mbarrier_arrive(&landed[[[STAGE]]]);
// CU:       int [[PHASE:phase[_0-9]*]] = 0;
// CU:       if (!landed_all_tma) tilec::cp_async_wait<PIPELINE_STAGES - 2>();
// CU:       if (landed_in_use) tilec::mbarrier_wait(&landed[{{read_stage[_0-9]*}}], [[PHASE]]);
// CU:       if (!landed_all_tma) tilec::cp_async_wait<0>();

// H-LABEL: inline void desc_mm(
// H:       tilec::TmaMap tma_maps[2];
// H-NEXT:  unsigned tma_maps_live = 0;
// H-NEXT:  if (tilec::encode_tma_map(tma_maps[0], a, int(sizeof(*a)), M, K, K, BM, BK))
// H-NEXT:    tma_maps_live |= 1u << 0;
// H-NEXT:  if (tilec::encode_tma_map(tma_maps[1], b, int(sizeof(*b)), K, N, N, BK, BN))
// H-NEXT:    tma_maps_live |= 1u << 1;
// The key's fact: both maps, and the producer warpgroup allowed.
// H:       key.push(tilec::div16_mask(a, b, c, M, N, K)
// H-NEXT:      | tilec::maps_fact(tma_maps_live, (3u | 1u << 31), 61));
// H:       void* params[] = {(void*)&a, (void*)&b, (void*)&c, (void*)&M, (void*)&N, (void*)&K, (void*)&tma_maps[0], (void*)&tma_maps[1], (void*)&tma_maps_live, (void*)&programs};

// The same boxes through pointer tiles, each bound written out (a template constant stride
// for B): the same copies.
template <int BM, int BN, int BK, int LDB>
TILEC_KERNEL void box_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K,
                         int lda) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto rk = k + tl::arange<0, BK>();
    auto a_mask = (tl::expand_dims<1>(rm) >= 0) & (tl::expand_dims<1>(rm) < M) &
                  (tl::expand_dims<0>(rk) >= 0) & (tl::expand_dims<0>(rk) < K);
    auto b_mask = (tl::expand_dims<1>(rk) >= 0) & (tl::expand_dims<1>(rk) < K) &
                  (tl::expand_dims<0>(rn) >= 0) & (tl::expand_dims<0>(rn) < N);
    auto a_tile = tl::load(a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk), a_mask, 0.0f);
    auto b_tile = tl::load(b + tl::expand_dims<1>(rk) * LDB + tl::expand_dims<0>(rn), b_mask, 0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N));
}

// IR-LABEL: kernel @box_mm<int BM, int BN, int BK, int LDB>
// IR:       tma_map %0:a, %3:M, %5:K, %6:lda [BM] [BK]
// IR-NEXT:  %{{[0-9]+}} = constant [LDB] : int
// IR-NEXT:  tma_map %1:b, %5:K, %4:N, %{{[0-9]+}} [BK] [BN]
// IR-NOT:   async_copy
// IR:       tma_copy
// IR-NOT:   async_copy

// H-LABEL: inline void box_mm(
// H:       if (tilec::encode_tma_map(tma_maps[1], b, int(sizeof(*b)), K, N, LDB, BK, BN))

// Almost boxes. A's mask has no lower bounds, but its rows start at a program id times BM and
// its columns at the loop's counter, both provably not negative: a box. B's row stride is
// computed in the kernel (the launcher cannot encode it): it stays cp.async.
template <int BM, int BN, int BK>
TILEC_KERNEL void near_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto rk = k + tl::arange<0, BK>();
    auto a_tile = tl::load(a + tl::expand_dims<1>(rm) * K + tl::expand_dims<0>(rk),
                           (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rk) < K), 0.0f);
    auto b_tile = tl::load(b + tl::expand_dims<1>(rk) * (N * 2) + tl::expand_dims<0>(rn),
                           (tl::expand_dims<1>(rk) >= 0) & (tl::expand_dims<1>(rk) < K) &
                               (tl::expand_dims<0>(rn) >= 0) & (tl::expand_dims<0>(rn) < N),
                           0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), acc);
}

// IR-LABEL: kernel @near_mm<int BM, int BN, int BK>
// IR:       tma_map %0:a, %3:M, %5:K, %5:K [BM] [BK]
// IR-NOT:   tma_map
// IR:       tma_copy
// IR:       async_copy
// IR:       tma_copy
// IR:       async_copy

// Rows that wrap around (tutorial 03's `% M`) whose products are stored unmasked (the wrapped
// rows land on real rows), and a bound of `K - k`, which the launcher cannot compute:
// cp.async as before, no maps.
template <int BM, int BN, int BK>
TILEC_KERNEL void wrap_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  auto rm = (tl::program_id(0) * BM + tl::arange<0, BM>()) % M;
  auto rn = (tl::program_id(1) * BN + tl::arange<0, BN>()) % N;
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto a_tile = tl::load(a + tl::expand_dims<1>(rm) * K + tl::expand_dims<0>(k + rk),
                           tl::expand_dims<0>(rk) < K - k, 0.0f);
    auto b_tile = tl::load(b + tl::expand_dims<1>(k + rk) * N + tl::expand_dims<0>(rn),
                           (tl::expand_dims<1>(rk) >= 0) & (tl::expand_dims<1>(rk) < K - k) &
                               (tl::expand_dims<0>(rn) >= 0) & (tl::expand_dims<0>(rn) < N),
                           0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), acc);
}

// IR-LABEL: kernel @wrap_mm<int BM, int BN, int BK>
// IR-NOT:   tma_map
// IR-NOT:   mbarrier
// IR:       async_wait [PIPELINE_STAGES - 2]
// IR-NOT:   mbarrier_ring
// IR:       async_copy
// IR-NOT:   tma_copy
// IR:       async_copy
// IR-NOT:   tma_copy

// H-LABEL: inline void wrap_mm(
// H-NOT:   encode_tma_map
// H:       void* params[] = {(void*)&a, (void*)&b, (void*)&c, (void*)&M, (void*)&N, (void*)&K};

// Tutorial 03's spelling: rows of A and columns of B wrap at the matrix's edge (`% M`, `% N`)
// and only K is masked, with no `>= 0` (k counts up from 0). Past the edge TMA reads zeros
// where the wrapped rows would read other rows; the products of those rows reach only the
// store, which is masked to the matrix. So both operands are boxes.
template <int BM, int BN, int BK>
TILEC_KERNEL void wrap_masked_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  auto offs_m = (tl::program_id(0) * BM + tl::arange<0, BM>()) % M;
  auto offs_n = (tl::program_id(1) * BN + tl::arange<0, BN>()) % N;
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto offs_k = k * BK + tl::arange<0, BK>();
    auto a_tile = tl::load(a + tl::expand_dims<1>(offs_m) * K + tl::expand_dims<0>(offs_k),
                           tl::expand_dims<0>(offs_k) < K, 0.0f);
    auto b_tile = tl::load(b + tl::expand_dims<1>(offs_k) * N + tl::expand_dims<0>(offs_n),
                           tl::expand_dims<1>(offs_k) < K, 0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
  }
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  tl::store(c + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N));
}

// IR-LABEL: kernel @wrap_masked_mm<int BM, int BN, int BK>
// IR:       tma_map %0:a, %3:M, %5:K, %5:K [BM] [BK]
// IR-NEXT:  tma_map %1:b, %5:K, %4:N, %4:N [BK] [BN]
// IR-NOT:   async_copy
// IR:       async_wait [[BARS:%[0-9]+]]:landed [PIPELINE_STAGES - 2]

// The same loop, but the products are summed over the rows before the store: a zero row would
// change the sum, so A stays cp.async; so does B (only elementwise work, other dots'
// accumulators and masked stores are followed from a dot's result).
template <int BM, int BN, int BK>
TILEC_KERNEL void wrap_colsum(const tl::half *a, const tl::half *b, float *c, int M, int N,
                              int K) {
  auto offs_m = (tl::program_id(0) * BM + tl::arange<0, BM>()) % M;
  auto offs_n = (tl::program_id(1) * BN + tl::arange<0, BN>()) % N;
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto offs_k = k * BK + tl::arange<0, BK>();
    auto a_tile = tl::load(a + tl::expand_dims<1>(offs_m) * K + tl::expand_dims<0>(offs_k),
                           tl::expand_dims<0>(offs_k) < K, 0.0f);
    auto b_tile = tl::load(b + tl::expand_dims<1>(offs_k) * N + tl::expand_dims<0>(offs_n),
                           tl::expand_dims<1>(offs_k) < K, 0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
  }
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  tl::store(c + rn, tl::sum<0>(acc), rn < N);
}

// IR-LABEL: kernel @wrap_colsum<int BM, int BN, int BK>
// IR-NOT:   tma_map
// IR:       async_copy

// Tutorial 03 as written there: pointers advanced each iteration (`a_ptrs += BK`,
// `b_ptrs += BK * N`) and the K tail masked by `offs_k < K - k * BK`. The pipeline recomputes
// the advanced pointers from the iteration's number, so A's box starts at column k * BK and
// B's at row k * BK, and the mask bounds the shifted coordinate by K: both are boxes. The
// activation under `if constexpr` keeps the wrapped rows element for element.
template <int BM, int BN, int BK, bool RELU>
TILEC_KERNEL void advance_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  auto offs_m = (tl::program_id(0) * BM + tl::arange<0, BM>()) % M;
  auto offs_n = (tl::program_id(1) * BN + tl::arange<0, BN>()) % N;
  auto offs_k = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(offs_m) * K + tl::expand_dims<0>(offs_k);
  auto b_ptrs = b + tl::expand_dims<1>(offs_k) * N + tl::expand_dims<0>(offs_n);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto a_tile = tl::load(a_ptrs, tl::expand_dims<0>(offs_k) < K - k * BK, 0.0f);
    auto b_tile = tl::load(b_ptrs, tl::expand_dims<1>(offs_k) < K - k * BK, 0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
    a_ptrs += BK;
    b_ptrs += BK * N;
  }
  if constexpr (RELU)
    acc = tl::maximum(acc, 0.0f);
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  tl::store(c + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N));
}

// IR-LABEL: kernel @advance_mm<int BM, int BN, int BK, bool RELU>
// IR:       tma_map %0:a, %3:M, %5:K, %5:K [BM] [BK]
// IR-NEXT:  tma_map %1:b, %5:K, %4:N, %4:N [BK] [BN]
// IR-NOT:   async_copy
// IR:       async_wait [[BARS:%[0-9]+]]:landed [PIPELINE_STAGES - 2]

// CU-LABEL: advance_mm(
// CU:       tilec::tma_load_tile<tilec::SmemTile<BM, BK, tl::half>>(a_tile_next, &a_map, {{\(?.*}}, (k_ahead * BK), &landed[stage]);
// CU:       tilec::tma_load_tile<tilec::SmemTile<BK, BN, tl::half>>(b_tile_next, &b_map, (k_ahead * BK), {{.*}}, &landed[stage]);

// The same, but A advances two blocks while its mask assumes one: the box starting at column
// 2 * k * BK would be bounded by K, the mask reads up to K - k * BK past it. A stays cp.async.
template <int BM, int BN, int BK>
TILEC_KERNEL void advance_skew_mm(const tl::half *a, const tl::half *b, float *c, int M, int N,
                                  int K) {
  auto offs_m = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto offs_k = tl::arange<0, BK>();
  auto offs_n = tl::arange<0, BN>();
  auto a_ptrs = a + tl::expand_dims<1>(offs_m) * K + tl::expand_dims<0>(offs_k);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, 2 * BK); ++k) {
    auto a_tile = tl::load(a_ptrs, (tl::expand_dims<1>(offs_m) < M) &
                                       (tl::expand_dims<0>(offs_k) < K - k * BK), 0.0f);
    auto b_tile = tl::load(b + tl::expand_dims<1>(offs_k) * N + tl::expand_dims<0>(offs_n));
    acc = tl::dot(a_tile, b_tile, acc);
    a_ptrs += 2 * BK;
  }
  tl::store(c + tl::expand_dims<1>(offs_m) * N + tl::expand_dims<0>(offs_n), acc,
            tl::expand_dims<1>(offs_m) < M);
}

// IR-LABEL: kernel @advance_skew_mm<int BM, int BN, int BK>
// IR-NOT:   tma_map
// IR:       async_copy
// IR-NOT:   tma_copy
// IR:       async_copy
// IR-NOT:   tma_copy

// Tutorial 03 as written, every stride an argument: the columns' strides (stride_ak,
// stride_bn) are checked for 1 by the launcher, which encodes a map only then; the advance by
// BK * stride_ak is then a column shift of BK.
template <int BM, int BN, int BK>
TILEC_KERNEL void all_strides_mm(const tl::half *a, const tl::half *b, float *c, int M, int N,
                                 int K, int stride_am, int stride_ak, int stride_bk, int stride_bn,
                                 int stride_cm, int stride_cn) {
  auto offs_am = (tl::program_id(0) * BM + tl::arange<0, BM>()) % M;
  auto offs_bn = (tl::program_id(1) * BN + tl::arange<0, BN>()) % N;
  auto offs_k = tl::arange<0, BK>();
  auto a_ptrs = a + (tl::expand_dims<1>(offs_am) * stride_am + tl::expand_dims<0>(offs_k) * stride_ak);
  auto b_ptrs = b + (tl::expand_dims<1>(offs_k) * stride_bk + tl::expand_dims<0>(offs_bn) * stride_bn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto x = tl::load(a_ptrs, tl::expand_dims<0>(offs_k) < K - k * BK, 0.0f);
    auto y = tl::load(b_ptrs, tl::expand_dims<1>(offs_k) < K - k * BK, 0.0f);
    acc = tl::dot(x, y, acc);
    a_ptrs += BK * stride_ak;
    b_ptrs += BK * stride_bk;
  }
  auto offs_cm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto offs_cn = tl::program_id(1) * BN + tl::arange<0, BN>();
  tl::store(c + stride_cm * tl::expand_dims<1>(offs_cm) + stride_cn * tl::expand_dims<0>(offs_cn),
            acc, (tl::expand_dims<1>(offs_cm) < M) & (tl::expand_dims<0>(offs_cn) < N));
}

// IR-LABEL: kernel @all_strides_mm<int BM, int BN, int BK>
// IR:       tma_map %0:a, %3:M, %5:K, %6:stride_am, %7:stride_ak [BM] [BK]
// IR-NEXT:  tma_map %1:b, %5:K, %4:N, %8:stride_bk, %9:stride_bn [BK] [BN]

// H-LABEL: inline void all_strides_mm(
// H:       if (stride_ak == 1 && tilec::encode_tma_map(tma_maps[0], a, int(sizeof(*a)), M, K, stride_am, BM, BK))
// H:       if (stride_bn == 1 && tilec::encode_tma_map(tma_maps[1], b, int(sizeof(*b)), K, N, stride_bk, BK, BN))

// Attention's spelling: each program reads one matrix of a stack (a head), `base + head * M *
// N`, rows masked to `< M`, the very bound the shift is a multiple of. The map gets a third
// dimension, the matrix, and the box's coordinate there is `head`; the ring is the copy
// engine's only where that is not negative (below the base the kernel reads memory the map
// would give as zeros). V's columns are a bare arange, unmasked: read whole, [0, D).
// Grouped heads: V's matrix is `head / group`, computed once before the loop.
template <int BM, int BN, int D>
TILEC_KERNEL void heads_mm(const tl::half *p, const tl::half *v, float *o, int M, int N,
                           int group) {
  int m0 = tl::program_id(0) * BM;
  int head = tl::program_id(1);
  int kv_head = head / group;
  const tl::half *v_base = v + int64_t(kv_head) * N * D;
  auto rows = m0 + tl::arange<0, BM>();
  auto offs_d = tl::arange<0, D>();
  auto acc = tl::zeros<float, BM, D>();
  for (int n0 = 0; n0 < N; n0 += BN) {
    auto cols = n0 + tl::arange<0, BN>();
    auto pt = tl::load(p + int64_t(head) * M * N + tl::expand_dims<1>(rows) * N +
                           tl::expand_dims<0>(cols),
                       tl::expand_dims<1>(rows) < M && tl::expand_dims<0>(cols) < N, 0.0f);
    auto vt = tl::load(v_base + tl::expand_dims<1>(cols) * D + tl::expand_dims<0>(offs_d),
                       tl::expand_dims<1>(cols) < N, 0.0f);
    acc = tl::dot(pt, vt, acc);
  }
  tl::store(o + int64_t(head) * M * D + tl::expand_dims<1>(rows) * D + tl::expand_dims<0>(offs_d),
            acc, tl::expand_dims<1>(rows) < M);
}

// IR-LABEL: kernel @heads_mm<int BM, int BN, int D>
// IR:       tma_map %0:p, %3:M, %4:N, %4:N [BM] [BN] [1]
// IR-NEXT:  [[D0:%[0-9]+]] = constant [D] : int
// IR-NEXT:  [[D1:%[0-9]+]] = constant [D] : int
// IR-NEXT:  tma_map %1:v, %4:N, [[D0]], [[D1]] [BN] [D] [1]
// The program id is not negative; kv_head, from a division by an argument, is checked.
// IR:       %{{[0-9]+}}:stacks_from_base = binary ">=" %{{[0-9]+}}:kv_head, %{{[0-9]+}} : bool
// IR-NEXT:  [[BARS:%[0-9]+]]:landed = mbarrier_ring %{{[0-9]+}}:stacks_from_base
// IR:       tma_copy {{.*}}, [[BARS]]:landed, %{{[0-9]+}}:stage, %{{[0-9]+}}:m0, %{{[0-9]+}}:n0_ahead, %{{[0-9]+}}:head [0]
// IR:       tma_copy {{.*}}, [[BARS]]:landed, %{{[0-9]+}}:stage, %{{[0-9]+}}:n0_ahead, %{{[0-9]+}}, %{{[0-9]+}}:kv_head [1]

// CU-LABEL: heads_mm(const tl::half* p, const tl::half* v, float* o, int M, int N, int group, const __grid_constant__ tilec::TmaMap p_map, const __grid_constant__ tilec::TmaMap v_map, const unsigned tma_maps_live) {
// CU:       const bool stacks_from_base = (kv_head >= 0);
// CU:       const bool pt_stages_by_tma = {{.*}} && (all_maps_encoded || ((tma_maps_live >> 0) & 1u)) && stacks_from_base;
// CU-NEXT:  const bool vt_stages_by_tma = {{.*}} && (all_maps_encoded || ((tma_maps_live >> 1) & 1u)) && stacks_from_base;
// The producer warpgroup's copies, then the loop without it:
// CU:       tilec::tma_load_stacked_tile<tilec::SmemTile<BM, BN, tl::half>>(pt_next, &p_map, m0, n0_ahead, head, &landed[stage]);
// CU:       tilec::tma_load_stacked_tile<tilec::SmemTile<BN, D, tl::half>>(vt_next, &v_map, n0_ahead, 0, kv_head, &landed[stage]);
// CU:       if (tid == 0) tilec::tma_load_stacked_tile<tilec::SmemTile<BM, BN, tl::half>>({{pt_next_[0-9]+}}, &p_map, m0, {{n0_ahead_[0-9]+}}, head, &landed[{{stage_[0-9]+}}]);

// H-LABEL: inline void heads_mm(
// H:       if (tilec::encode_stacked_tma_map(tma_maps[0], p, int(sizeof(*p)), M, N, N, BM, BN))
// H:       if (tilec::encode_stacked_tma_map(tma_maps[1], v, int(sizeof(*v)), N, D, D, BN, D))
