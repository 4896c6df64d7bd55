// Fused attention, forward pass, as Triton's tutorial 06 writes it ("Fused Attention",
// python/tutorials/06-fused-attention.py: Flash Attention v2 with the softmax in base 2), for
// bench/bench_spellings.cpp.
//
//   O = softmax(Q K^T * sm_scale) V        per (batch, head), optionally causal
//   M = the rows' log-sum-exp in base 2    (what the backward pass reads back)
//
// Q, K, V and O are [Z, H, N_CTX, HEAD_DIM], contiguous; M is [Z, H, N_CTX] in float. Each
// program takes BLOCK_M queries of one (batch, head): program_id(0) is the query block,
// program_id(1) the (batch, head) pair. Q's tile is loaded once; the loop walks K and V in
// blocks of BLOCK_N keys, K's block loaded already transposed ([HEAD_DIM, BLOCK_N]) so that
// qk = tl::dot(q, k_t), and keeps the running row maximum m_i, the running row sum l_i of
// exp2(qk * qk_scale - m_i) and the unnormalized output acc.
//
// Differences from the tutorial, all from C++ or from N_CTX not being a multiple of the blocks:
//   - pointers are tiles of offsets (the tutorial now uses tensor descriptors; its earlier
//     versions use block pointers): K^T is addressed as k + offs_n[None, :] * HEAD_DIM +
//     offs_d[:, None];
//   - the tutorial's _attn_fwd_inner returns (acc, l_i, m_i); a tilec helper returns one value,
//     so its two calls (the blocks left of the diagonal, then the diagonal blocks) are written
//     out as two loops in the kernel;
//   - keys past N_CTX read as 0 and their scores are set to -inf (loop 1; it masks every
//     block, the simplest correct spelling, though only the last one needs it). Queries past
//     N_CTX read as 0 and are not stored. The diagonal blocks use -inf where the tutorial
//     adds -1.0e6: every row has at least one key in its first block (column 0, or its own
//     index on the diagonal), so the running maximum is finite and exp2(-inf - m) = 0.
#include <tilec/tl.h>

#include <cmath>
#include <cstdint>

template <int BLOCK_M, int BLOCK_N, int HEAD_DIM, bool CAUSAL, class T>
TILEC_KERNEL void attention_fwd(const T *q, const T *k, const T *v, T *o, float *M, float sm_scale,
                                int N_CTX) {
  int start_m = tl::program_id(0);
  int off_hz = tl::program_id(1);
  // The (batch, head) slice: N_CTX rows of HEAD_DIM values (64-bit: Z * H * N_CTX * HEAD_DIM
  // may pass 2^31 elements).
  int64_t qkv_offset = int64_t(off_hz) * N_CTX * HEAD_DIM;
  const T *q_base = q + qkv_offset;
  const T *k_base = k + qkv_offset;
  const T *v_base = v + qkv_offset;

  auto offs_m = start_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_n = tl::arange<0, BLOCK_N>();
  auto offs_d = tl::arange<0, HEAD_DIM>();

  // The running state of the online softmax, per query row.
  auto m_i = tl::full<float, BLOCK_M>(-INFINITY);
  auto l_i = tl::full<float, BLOCK_M>(1.0f);
  auto acc = tl::zeros<float, BLOCK_M, HEAD_DIM>();
  float qk_scale = sm_scale * 1.44269504f; // 1 / ln(2): exp(x) = exp2(x / ln 2)

  auto q_tile =
      tl::load(q_base + tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d),
               tl::expand_dims<1>(offs_m) < N_CTX, 0.0f);

  // Loop 1 (the tutorial's stage 1 for causal, stage 3 otherwise): the key blocks left of the
  // diagonal block when causal, where no key comes after a query; every block otherwise.
  int hi = CAUSAL ? start_m * BLOCK_M : N_CTX;
  for (int start_n = 0; start_n < hi; start_n += BLOCK_N) {
    auto cols = start_n + offs_n;
    auto k_t = tl::load(k_base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(cols) < N_CTX, 0.0f);
    auto qk = tl::dot(q_tile, k_t);
    qk = tl::where(tl::expand_dims<0>(cols) < N_CTX, qk, -INFINITY);
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

  // Loop 2 (the tutorial's stage 2, causal only): the diagonal block of BLOCK_M keys, where a
  // key may come after a query. Keys past N_CTX need no mask of their own: they only come
  // after queries past N_CTX, which are not stored.
  if constexpr (CAUSAL) {
    int lo = start_m * BLOCK_M;
    int hi_diag = tl::minimum((start_m + 1) * BLOCK_M, N_CTX);
    for (int start_n = lo; start_n < hi_diag; start_n += BLOCK_N) {
      auto cols = start_n + offs_n;
      auto k_t = tl::load(k_base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                          tl::expand_dims<0>(cols) < N_CTX, 0.0f);
      auto qk = tl::dot(q_tile, k_t);
      qk = tl::where(tl::expand_dims<1>(offs_m) >= tl::expand_dims<0>(cols), qk, -INFINITY);
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

  // Epilogue: the log-sum-exp in base 2 for the backward pass, and the normalized output.
  m_i = m_i + tl::log2(l_i);
  acc = acc / tl::expand_dims<1>(l_i);
  auto row_mask = offs_m < N_CTX;
  tl::store(M + int64_t(off_hz) * N_CTX + offs_m, m_i, row_mask);
  tl::store(o + qkv_offset + tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d),
            tl::cast<T>(acc), tl::expand_dims<1>(row_mask));
}

// Autotuning over the tutorial's Hopper-sized blocks: 128 (or 64) queries by 64 keys, 4 or 8
// warps, 2 or 3 stages for the K and V blocks. BLOCK_M must be a multiple of BLOCK_N (the
// diagonal loop covers BLOCK_M keys in BLOCK_N steps), as in every config here.
TILEC_AUTOTUNE(attention_fwd) = {
    .configs =
        {
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 2},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 8, .num_stages = 2},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}}, .num_warps = 8, .num_stages = 3},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 2},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}}, .num_warps = 4, .num_stages = 3},
        },
    .key = {"N_CTX"},
};
