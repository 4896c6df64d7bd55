// Attention forward as Triton's tutorial 06 (fused attention) writes it: one BLOCK_M block of
// queries per program, K read as K^T through its offsets, online softmax in base 2, the row
// log-sum-exp saved. The translator keeps the row statistics in the tensor cores' layout and
// loads K along its rows.
#include <tilec/tl.h>

template <int BLOCK_M, int BLOCK_N, int HEAD_DIM, bool CAUSAL, class T>
TILEC_KERNEL void attn_fwd(const T *q, const T *k, const T *v, T *o, float *lse, float sm_scale,
                           int n_ctx) {
  int start_m = tl::program_id(0);
  int base = tl::program_id(1) * n_ctx * HEAD_DIM; // this (batch, head)'s [n_ctx, HEAD_DIM]
  auto offs_m = start_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_n = tl::arange<0, BLOCK_N>();
  auto offs_d = tl::arange<0, HEAD_DIM>();
  auto m_i = tl::full<float, BLOCK_M>(-INFINITY);
  auto l_i = tl::full<float, BLOCK_M>(1.0f);
  auto acc = tl::zeros<float, BLOCK_M, HEAD_DIM>();
  float qk_scale = sm_scale * 1.44269504f; // exp(x) = exp2(x * log2(e))
  auto q_tile = tl::load(q + base + tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d),
                         tl::expand_dims<1>(offs_m) < n_ctx, 0.0f);
  int hi = CAUSAL ? tl::minimum((start_m + 1) * BLOCK_M, n_ctx) : n_ctx;
  for (int start_n = 0; start_n < hi; start_n += BLOCK_N) {
    auto cols = start_n + offs_n;
    auto k_t = tl::load(k + base + tl::expand_dims<0>(cols) * HEAD_DIM + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(cols) < n_ctx, 0.0f);
    auto qk = tl::dot(q_tile, k_t);
    auto keep = (tl::expand_dims<0>(cols) < n_ctx) &&
                (!CAUSAL || tl::expand_dims<1>(offs_m) >= tl::expand_dims<0>(cols));
    qk = qk * qk_scale + tl::where(keep, 0.0f, -1.0e6f);
    auto m_ij = tl::maximum(m_i, tl::max<1>(qk));
    auto p = tl::exp2(qk - tl::expand_dims<1>(m_ij));
    auto alpha = tl::exp2(m_i - m_ij);
    l_i = l_i * alpha + tl::sum<1>(p);
    acc = acc * tl::expand_dims<1>(alpha);
    auto v_tile = tl::load(v + base + tl::expand_dims<1>(cols) * HEAD_DIM + tl::expand_dims<0>(offs_d),
                           tl::expand_dims<1>(cols) < n_ctx, 0.0f);
    acc = tl::dot(tl::cast<T>(p), v_tile, acc);
    m_i = m_ij;
  }
  auto rows_ok = offs_m < n_ctx;
  tl::store(lse + tl::program_id(1) * n_ctx + offs_m, m_i + tl::log2(l_i), rows_ok);
  acc = acc / tl::expand_dims<1>(l_i);
  tl::store(o + base + tl::expand_dims<1>(offs_m) * HEAD_DIM + tl::expand_dims<0>(offs_d),
            tl::cast<T>(acc), tl::expand_dims<1>(rows_ok));
}
