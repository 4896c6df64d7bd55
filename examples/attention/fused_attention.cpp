// Fused attention, forward and backward, written the way Triton's tutorial 06 writes it
// ("Fused Attention", python/tutorials/06-fused-attention.py in the Triton repository, MIT
// licence; Flash Attention v2 with the softmax in base 2). Written anew in the tile vocabulary.
//
//   S = Q K^T * sm_scale, P = softmax(S) (row-wise, masked), O = P V
//   M = the rows' log-sum-exp of S in base 2 (log2 sum_j 2^(S_ij log2 e)), saved for the backward
//   delta = rowsum(dO * O); dS = P * (dO V^T - delta)
//   dQ = dS K * sm_scale, dK = dS^T Q * sm_scale, dV = P^T dO
//
// Layouts: Q, O, dO, dQ are [Z, H, N_CTX, HEAD_DIM], K, V, dK, dV are [Z, H_KV, N_CTX, HEAD_DIM],
// all contiguous; M and delta are [Z, H, N_CTX] in float. Grouped-query attention: H_KV divides
// H and query head h reads K/V head h / (H / H_KV). T is tl::half or tl::bfloat16; dot products
// accumulate in float.
//
// Masks: CAUSAL keeps key j for query i when j <= i. WINDOW (a sliding window, chosen over an
// additive bias: no extra tensor to read, no extra gradient, and whole key blocks outside the
// window are skipped) further keeps only keys with i - window < j, and when not causal also
// j < i + window (|i - j| < window); window >= 1. N_CTX need not be a multiple of any block:
// rows and keys past N_CTX read as 0, are masked out of the softmax and are not stored.
//
// The backward pass is the tutorial's three parts, as three kernels: attn_bwd_preprocess
// (delta), attn_bwd_dkdv (a program owns BLOCK_N keys of one K/V head and walks the queries of
// every query head of its group, so dK and dV need no atomics under grouped-query attention)
// and attn_bwd_dq (a program owns BLOCK_M queries and walks the keys). The tutorial runs the
// last two as one kernel (each program does a key block, then a query block); with GQA their
// grids differ (Z * H_KV key-block programs, Z * H query-block programs), so they are separate.
//
// Differences from the tutorial, from C++ or from N_CTX not being a multiple of the blocks:
//   - pointers are tiles of offsets (the tutorial uses tensor descriptors or block pointers);
//     transposed operands (K^T, Q^T) are loaded through transposed offsets;
//   - a tilec helper returns one value, so the tutorial's _attn_fwd_inner, _attn_bwd_dkdv and
//     _attn_bwd_dq, which return tuples, are written out as loops in the kernels;
//   - the backward scales Q K^T by sm_scale * log2(e) in the kernels rather than pre-scaling K
//     on the host, and dQ by sm_scale rather than ln(2);
//   - masked scores get -1.0e6 added (as the tutorial's diagonal blocks): a row whose first
//     block is all masked (sliding window) keeps a finite maximum, and its bogus partial sums
//     are scaled by exp2(-1e6 - m) = 0 once a kept key arrives (key i itself is always kept).
#include <tilec/tl.h>

#include <cmath>
#include <cstdint>

// Forward. Grid: (cdiv(N_CTX, BLOCK_M), Z * H). Loop 1 walks the key blocks that need no
// causal mask (all of them when not causal, those left of the diagonal block when causal);
// loop 2 (causal only) the diagonal block, BLOCK_M keys in BLOCK_N steps.
template <int BLOCK_M, int BLOCK_N, int HEAD_DIM, bool CAUSAL, bool WINDOW, class T>
TILEC_KERNEL void attn_fwd(const T *q, const T *k, const T *v, T *o, float *M, float sm_scale,
                           int N_CTX, int H, int H_KV, int window) {
  static_assert(BLOCK_M % BLOCK_N == 0, "the diagonal loop covers BLOCK_M keys in BLOCK_N steps");
  int start_m = tl::program_id(0) * BLOCK_M;
  int off_hz = tl::program_id(1);
  int off_kv = off_hz / H * H_KV + off_hz % H / (H / H_KV);
  // 64-bit: Z * H * N_CTX * HEAD_DIM may pass 2^31 elements.
  const T *q_base = q + int64_t(off_hz) * N_CTX * HEAD_DIM;
  const T *k_base = k + int64_t(off_kv) * N_CTX * HEAD_DIM;
  const T *v_base = v + int64_t(off_kv) * N_CTX * HEAD_DIM;

  auto offs_m = start_m + tl::arange<0, BLOCK_M>();
  auto offs_n = tl::arange<0, BLOCK_N>();
  auto offs_d = tl::arange<0, HEAD_DIM>();
  auto m_i = tl::full<float, BLOCK_M>(-INFINITY);
  auto l_i = tl::full<float, BLOCK_M>(1.0f);
  auto acc = tl::zeros<float, BLOCK_M, HEAD_DIM>();
  float qk_scale = sm_scale * 1.44269504f; // exp(x) = exp2(x * log2(e))
  auto q_tile =
      tl::load(q_base + tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d),
               tl::expand_dims<1>(offs_m) < N_CTX, 0.0f);

  int lo = 0;
  int hi = CAUSAL ? start_m : N_CTX;
  if constexpr (WINDOW) { // the first block holding a key of the window
    lo = tl::maximum(start_m - window + 1, 0) / BLOCK_N * BLOCK_N;
    if constexpr (!CAUSAL)
      hi = tl::minimum(start_m + BLOCK_M - 1 + window, N_CTX);
  }
  for (int start_n = lo; start_n < hi; start_n += BLOCK_N) {
    auto cols = start_n + offs_n;
    auto k_t = tl::load(k_base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(cols) < N_CTX, 0.0f);
    auto qk = tl::dot(q_tile, k_t);
    auto rel = tl::expand_dims<1>(offs_m) - tl::expand_dims<0>(cols); // i - j
    auto keep = (tl::expand_dims<0>(cols) < N_CTX) &&
                (!WINDOW || ((rel < window) && (CAUSAL || rel > -window)));
    // As the tutorial's unmasked stage: the row maximum of the raw scores, scaled once per
    // row, and one multiply-add per score (masked scores are -1e6 before the scale).
    qk = tl::where(keep, qk, -1.0e6f);
    auto m_ij = tl::maximum(m_i, tl::max<1>(qk) * qk_scale);
    auto p = tl::exp2(qk * qk_scale - tl::expand_dims<1>(m_ij));
    auto alpha = tl::exp2(m_i - m_ij);
    l_i = l_i * alpha + tl::sum<1>(p);
    acc = acc * tl::expand_dims<1>(alpha);
    auto v_tile =
        tl::load(v_base + tl::expand_dims<1>(cols) * HEAD_DIM + tl::expand_dims<0>(offs_d),
                 tl::expand_dims<1>(cols) < N_CTX, 0.0f);
    acc = tl::dot(tl::cast<T>(p), v_tile, acc);
    m_i = m_ij;
  }
  if constexpr (CAUSAL) {
    // Keys past N_CTX need no mask here: only rows past N_CTX (not stored) reach them.
    int hi_diag = tl::minimum(start_m + BLOCK_M, N_CTX);
    for (int start_n = start_m; start_n < hi_diag; start_n += BLOCK_N) {
      auto cols = start_n + offs_n;
      auto k_t = tl::load(k_base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                          tl::expand_dims<0>(cols) < N_CTX, 0.0f);
      auto qk = tl::dot(q_tile, k_t);
      auto rel = tl::expand_dims<1>(offs_m) - tl::expand_dims<0>(cols);
      auto keep = (rel >= 0) && (!WINDOW || rel < window);
      qk = tl::where(keep, qk, -1.0e6f);
      auto m_ij = tl::maximum(m_i, tl::max<1>(qk) * qk_scale);
      auto p = tl::exp2(qk * qk_scale - tl::expand_dims<1>(m_ij));
      auto alpha = tl::exp2(m_i - m_ij);
      l_i = l_i * alpha + tl::sum<1>(p);
      acc = acc * tl::expand_dims<1>(alpha);
      auto v_tile =
          tl::load(v_base + tl::expand_dims<1>(cols) * HEAD_DIM + tl::expand_dims<0>(offs_d),
                   tl::expand_dims<1>(cols) < N_CTX, 0.0f);
      acc = tl::dot(tl::cast<T>(p), v_tile, acc);
      m_i = m_ij;
    }
  }

  auto rows_ok = offs_m < N_CTX;
  tl::store(M + int64_t(off_hz) * N_CTX + offs_m, m_i + tl::log2(l_i), rows_ok);
  acc = acc / tl::expand_dims<1>(l_i);
  tl::store(o + int64_t(off_hz) * N_CTX * HEAD_DIM + tl::expand_dims<1>(offs_m) * HEAD_DIM +
                tl::expand_dims<0>(offs_d),
            tl::cast<T>(acc), tl::expand_dims<1>(rows_ok));
}

// Backward, part 1: delta = rowsum(dO * O) in float. Grid: (cdiv(N_CTX, BLOCK_M), Z * H).
template <int BLOCK_M, int HEAD_DIM, class T>
TILEC_KERNEL void attn_bwd_preprocess(const T *o, const T *dO, float *delta, int N_CTX) {
  auto offs_m = tl::program_id(0) * BLOCK_M + tl::arange<0, BLOCK_M>();
  int64_t off_hz = tl::program_id(1);
  auto offs_d = tl::arange<0, HEAD_DIM>();
  // The 64-bit offset goes into the pointer: a scalar does not widen a tile's offsets.
  int64_t base = off_hz * N_CTX * HEAD_DIM;
  auto offs = tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d);
  auto rows_ok = offs_m < N_CTX;
  auto o_tile = tl::cast<float>(tl::load(o + base + offs, tl::expand_dims<1>(rows_ok), 0.0f));
  auto do_tile = tl::cast<float>(tl::load(dO + base + offs, tl::expand_dims<1>(rows_ok), 0.0f));
  tl::store(delta + off_hz * N_CTX + offs_m, tl::sum<1>(o_tile * do_tile), rows_ok);
}

// Backward, part 2: dK and dV. Grid: (cdiv(N_CTX, BLOCK_N), Z * H_KV). The program keeps its
// BLOCK_N keys and values in registers and, for each query head that reads them, walks the
// queries in BLOCK_M steps, working on the transposed scores (keys along rows) as the tutorial
// does: P^T = exp2(K Q^T * scale - M), dV += P^T dO, dP^T = V dO^T, dS^T = P^T (dP^T - delta),
// dK += dS^T Q. When causal, loop 1 takes the queries of the diagonal block (masked), loop 2
// the queries below it.
template <int BLOCK_M, int BLOCK_N, int HEAD_DIM, bool CAUSAL, bool WINDOW, class T>
TILEC_KERNEL void attn_bwd_dkdv(const T *q, const T *k, const T *v, const T *dO, const float *M,
                                const float *delta, T *dk, T *dv, float sm_scale, int N_CTX, int H,
                                int H_KV, int window) {
  static_assert(BLOCK_N % BLOCK_M == 0,
                "the diagonal loop covers BLOCK_N queries in BLOCK_M steps");
  int start_n = tl::program_id(0) * BLOCK_N;
  int off_kv = tl::program_id(1);
  int group = H / H_KV;
  int first_head = off_kv / H_KV * H + off_kv % H_KV * group;
  const T *k_base = k + int64_t(off_kv) * N_CTX * HEAD_DIM;
  const T *v_base = v + int64_t(off_kv) * N_CTX * HEAD_DIM;

  auto offs_n = start_n + tl::arange<0, BLOCK_N>();
  auto offs_d = tl::arange<0, HEAD_DIM>();
  // The query rows of a block, made once for both loops.
  auto range_m = tl::arange<0, BLOCK_M>();
  auto kv_offs = tl::expand_dims<1>(offs_n) * HEAD_DIM + tl::expand_dims<0>(offs_d);
  auto keys_ok = tl::expand_dims<1>(offs_n) < N_CTX;
  auto k_tile = tl::load(k_base + kv_offs, keys_ok, 0.0f);
  auto v_tile = tl::load(v_base + kv_offs, keys_ok, 0.0f);
  auto dk_acc = tl::zeros<float, BLOCK_N, HEAD_DIM>();
  auto dv_acc = tl::zeros<float, BLOCK_N, HEAD_DIM>();
  float qk_scale = sm_scale * 1.44269504f;

  // The queries that see these keys: [lo, hi) (loop 2 starts past the diagonal when causal).
  int lo = CAUSAL ? start_n + BLOCK_N : 0;
  int hi = N_CTX;
  if constexpr (WINDOW) {
    hi = tl::minimum(start_n + BLOCK_N - 1 + window, N_CTX);
    if constexpr (!CAUSAL)
      lo = tl::maximum(start_n - window + 1, 0) / BLOCK_M * BLOCK_M;
  }
  for (int head = first_head; head < first_head + group; ++head) {
    const T *q_base = q + int64_t(head) * N_CTX * HEAD_DIM;
    const T *do_base = dO + int64_t(head) * N_CTX * HEAD_DIM;
    const float *m_base = M + int64_t(head) * N_CTX;
    const float *d_base = delta + int64_t(head) * N_CTX;
    if constexpr (CAUSAL) {
      int hi_diag = tl::minimum(start_n + BLOCK_N, N_CTX);
      for (int start_m = start_n; start_m < hi_diag; start_m += BLOCK_M) {
        auto offs_m = start_m + range_m;
        auto q_t =
            tl::load(q_base + tl::expand_dims<0>(offs_m) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                     tl::expand_dims<0>(offs_m) < N_CTX, 0.0f);
        auto m = tl::load(m_base + offs_m, offs_m < N_CTX, 0.0f);
        auto qk_t = tl::dot(k_tile, q_t);
        auto rel = tl::expand_dims<0>(offs_m) - tl::expand_dims<1>(offs_n); // i - j
        auto keep = (rel >= 0) && (tl::expand_dims<0>(offs_m) < N_CTX) && (!WINDOW || rel < window);
        auto p_t = tl::where(keep, tl::exp2(qk_t * qk_scale - tl::expand_dims<0>(m)), 0.0f);
        auto do_tile =
            tl::load(do_base + tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d),
                     tl::expand_dims<1>(offs_m) < N_CTX, 0.0f);
        dv_acc = tl::dot(tl::cast<T>(p_t), do_tile, dv_acc);
        auto di = tl::load(d_base + offs_m, offs_m < N_CTX, 0.0f);
        auto dp_t = tl::dot(v_tile, tl::trans(do_tile));
        auto ds_t = p_t * (dp_t - tl::expand_dims<0>(di));
        dk_acc = tl::dot(tl::cast<T>(ds_t), tl::trans(q_t), dk_acc);
      }
    }
    for (int start_m = lo; start_m < hi; start_m += BLOCK_M) {
      auto offs_m = start_m + range_m;
      auto q_t =
          tl::load(q_base + tl::expand_dims<0>(offs_m) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                   tl::expand_dims<0>(offs_m) < N_CTX, 0.0f);
      auto m = tl::load(m_base + offs_m, offs_m < N_CTX, 0.0f);
      auto qk_t = tl::dot(k_tile, q_t);
      auto rel = tl::expand_dims<0>(offs_m) - tl::expand_dims<1>(offs_n);
      auto keep = (tl::expand_dims<0>(offs_m) < N_CTX) &&
                  (!WINDOW || ((rel < window) && (CAUSAL || rel > -window)));
      auto p_t = tl::where(keep, tl::exp2(qk_t * qk_scale - tl::expand_dims<0>(m)), 0.0f);
      auto do_tile =
          tl::load(do_base + tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d),
                   tl::expand_dims<1>(offs_m) < N_CTX, 0.0f);
      dv_acc = tl::dot(tl::cast<T>(p_t), do_tile, dv_acc);
      auto di = tl::load(d_base + offs_m, offs_m < N_CTX, 0.0f);
      auto dp_t = tl::dot(v_tile, tl::trans(do_tile));
      auto ds_t = p_t * (dp_t - tl::expand_dims<0>(di));
      dk_acc = tl::dot(tl::cast<T>(ds_t), tl::trans(q_t), dk_acc);
    }
  }
  int64_t kv_offset = int64_t(off_kv) * N_CTX * HEAD_DIM;
  tl::store(dk + kv_offset + kv_offs, tl::cast<T>(dk_acc * sm_scale), keys_ok);
  tl::store(dv + kv_offset + kv_offs, tl::cast<T>(dv_acc), keys_ok);
}

// Backward, part 3: dQ. Grid: (cdiv(N_CTX, BLOCK_M), Z * H). The program keeps its BLOCK_M
// queries, dO rows, M and delta in registers and walks the keys of its K/V head in BLOCK_N
// steps: P = exp2(Q K^T * scale - M), dP = dO V^T, dS = P (dP - delta), dQ += dS K. Loop 1
// takes the keys left of the diagonal block (all keys when not causal), loop 2 the diagonal.
template <int BLOCK_M, int BLOCK_N, int HEAD_DIM, bool CAUSAL, bool WINDOW, class T>
TILEC_KERNEL void attn_bwd_dq(const T *q, const T *k, const T *v, const T *dO, const float *M,
                              const float *delta, T *dq, float sm_scale, int N_CTX, int H, int H_KV,
                              int window) {
  static_assert(BLOCK_M % BLOCK_N == 0, "the diagonal loop covers BLOCK_M keys in BLOCK_N steps");
  int start_m = tl::program_id(0) * BLOCK_M;
  int off_hz = tl::program_id(1);
  int off_kv = off_hz / H * H_KV + off_hz % H / (H / H_KV);
  int64_t q_offset = int64_t(off_hz) * N_CTX * HEAD_DIM;
  const T *k_base = k + int64_t(off_kv) * N_CTX * HEAD_DIM;
  const T *v_base = v + int64_t(off_kv) * N_CTX * HEAD_DIM;

  auto offs_m = start_m + tl::arange<0, BLOCK_M>();
  auto offs_n = tl::arange<0, BLOCK_N>();
  auto offs_d = tl::arange<0, HEAD_DIM>();
  auto q_offs = tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d);
  auto rows_ok = offs_m < N_CTX;
  auto q_tile = tl::load(q + q_offset + q_offs, tl::expand_dims<1>(rows_ok), 0.0f);
  auto do_tile = tl::load(dO + q_offset + q_offs, tl::expand_dims<1>(rows_ok), 0.0f);
  auto m = tl::load(M + int64_t(off_hz) * N_CTX + offs_m, rows_ok, 0.0f);
  auto di = tl::load(delta + int64_t(off_hz) * N_CTX + offs_m, rows_ok, 0.0f);
  auto dq_acc = tl::zeros<float, BLOCK_M, HEAD_DIM>();
  float qk_scale = sm_scale * 1.44269504f;

  int lo = 0;
  int hi = CAUSAL ? start_m : N_CTX;
  if constexpr (WINDOW) {
    lo = tl::maximum(start_m - window + 1, 0) / BLOCK_N * BLOCK_N;
    if constexpr (!CAUSAL)
      hi = tl::minimum(start_m + BLOCK_M - 1 + window, N_CTX);
  }
  for (int start_n = lo; start_n < hi; start_n += BLOCK_N) {
    auto cols = start_n + offs_n;
    auto k_t = tl::load(k_base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(cols) < N_CTX, 0.0f);
    auto v_t = tl::load(v_base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(cols) < N_CTX, 0.0f);
    auto qk = tl::dot(q_tile, k_t);
    auto rel = tl::expand_dims<1>(offs_m) - tl::expand_dims<0>(cols);
    auto keep = (tl::expand_dims<0>(cols) < N_CTX) &&
                (!WINDOW || ((rel < window) && (CAUSAL || rel > -window)));
    auto p = tl::where(keep, tl::exp2(qk * qk_scale - tl::expand_dims<1>(m)), 0.0f);
    auto dp = tl::dot(do_tile, v_t);
    auto ds = p * (dp - tl::expand_dims<1>(di));
    dq_acc = tl::dot(tl::cast<T>(ds), tl::trans(k_t), dq_acc);
  }
  if constexpr (CAUSAL) {
    int hi_diag = tl::minimum(start_m + BLOCK_M, N_CTX);
    for (int start_n = start_m; start_n < hi_diag; start_n += BLOCK_N) {
      auto cols = start_n + offs_n;
      auto k_t = tl::load(k_base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                          tl::expand_dims<0>(cols) < N_CTX, 0.0f);
      auto v_t = tl::load(v_base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                          tl::expand_dims<0>(cols) < N_CTX, 0.0f);
      auto qk = tl::dot(q_tile, k_t);
      auto rel = tl::expand_dims<1>(offs_m) - tl::expand_dims<0>(cols);
      auto keep = (rel >= 0) && (!WINDOW || rel < window);
      auto p = tl::where(keep, tl::exp2(qk * qk_scale - tl::expand_dims<1>(m)), 0.0f);
      auto dp = tl::dot(do_tile, v_t);
      auto ds = p * (dp - tl::expand_dims<1>(di));
      dq_acc = tl::dot(tl::cast<T>(ds), tl::trans(k_t), dq_acc);
    }
  }
  tl::store(dq + q_offset + q_offs, tl::cast<T>(dq_acc * sm_scale), tl::expand_dims<1>(rows_ok));
}

// Autotuning. The forward takes the tutorial's Hopper blocks (128 or 64 queries by 64 keys, 4
// or 8 warps, 2 or 3 stages); the tutorial drops 8 warps for the smaller tiles. The backward
// kernels take the tutorial's shapes (32 queries by 128 keys for dK/dV, 128 by 32 for dQ) and
// neighbours, up to 128 x 128 with 8 warps (ptxas, sm_90a: the dK/dV one spills 284 bytes at
// D = 128, the dQ one none; 64 x 64 is spill-free everywhere). Every config keeps the
// diagonal loops' divisibility (static_asserts above).
TILEC_AUTOTUNE(attn_fwd) = {
    .configs =
        {
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 2},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 8, .num_stages = 2},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 8, .num_stages = 3},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 2},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}}, .num_warps = 8, .num_stages = 2},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}}, .num_warps = 8, .num_stages = 3},
        },
    .key = {"N_CTX"},
};

TILEC_AUTOTUNE(attn_bwd_dkdv) = {
    .configs =
        {
            {.values = {{"BLOCK_M", 32}, {"BLOCK_N", 128}}, .num_warps = 4, .num_stages = 2},
            {.values = {{"BLOCK_M", 32}, {"BLOCK_N", 128}}, .num_warps = 8, .num_stages = 3},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 128}}, .num_warps = 8, .num_stages = 2},
            {.values = {{"BLOCK_M", 32}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 3},
            {.values = {{"BLOCK_M", 32}, {"BLOCK_N", 64}}, .num_warps = 8, .num_stages = 3},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 2},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}}, .num_warps = 8, .num_stages = 2},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}}, .num_warps = 8, .num_stages = 2},
        },
    .key = {"N_CTX"},
};

TILEC_AUTOTUNE(attn_bwd_dq) = {
    .configs =
        {
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 32}}, .num_warps = 4, .num_stages = 2},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 32}}, .num_warps = 8, .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 8, .num_stages = 2},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 32}}, .num_warps = 4, .num_stages = 3},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 2},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}}, .num_warps = 8, .num_stages = 2},
        },
    .key = {"N_CTX"},
};
