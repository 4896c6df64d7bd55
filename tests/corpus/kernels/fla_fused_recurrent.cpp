// Linear attention as a recurrence over time, forward and backward, ported from
// flash-linear-attention (github.com/fla-org/flash-linear-attention,
// fla/ops/common/fused_recurrent.py at 07815769: fused_recurrent_fwd_kernel,
// fused_recurrent_bwd_kernel; MIT licence).
//
// A program owns a [BK, BV] block of one head's state h (K x V) and walks the head's T steps:
//   h = h * exp(g) * exp(gk)[:, None] * exp(gv)[None, :] (the decays in use), h += k v^T,
//   o = sum(h * (q * scale)[:, None], 0).
// Programs over blocks of K each write their part of o (summed on the host, as the original's
// host code does). The backward walks forward for dq, then backward for dh, dk, dv and the
// decays' gradients. REVERSE walks time backwards; IS_VARLEN takes the sequences' bounds from
// cu_seqlens (T then is each sequence's length).
//
// Differences from the original: element types are template parameters (TQ for q, k, v, do
// and the decays, TO for o, dq, dk, dv and the decays' gradients, TH for h0, ht, dht and dh0);
// its `T` is `T_len` here (a C++ template's usual type name). The original makes the optional
// decays' pointers (p_g, p_gk, p_gv and theirs in the backward) in earlier `if` blocks and
// advances them beside the others; a C++ variable declared in an `if constexpr` block is not
// visible in the next, and made unconditionally it would offset a null pointer, so those are
// computed in the loop from a row index (`row`) that steps as the pointers do. The loops'
// step sign is a constexpr (`step`).
#include <tilec/tl.h>

template <class TQ, class TO, class TH, int H, int K, int V, int BK, int BV, bool REVERSE,
          bool USE_G, bool USE_G_GAMMA, bool USE_GK, bool USE_GV, bool USE_INITIAL_STATE,
          bool STORE_FINAL_STATE, bool IS_VARLEN>
TILEC_KERNEL void fused_recurrent_fwd_kernel(const TQ *q, const TQ *k, const TQ *v, const TQ *g,
                                             const TQ *g_gamma, const TQ *gk, const TQ *gv,
                                             TO *o, const TH *h0, TH *ht,
                                             const int64_t *cu_seqlens, float scale, int B,
                                             int T_len) {
  int64_t i_v = tl::program_id(0), i_k = tl::program_id(1), i_nh = tl::program_id(2);
  int64_t i_n = i_nh / H, i_h = i_nh % H;

  int64_t all = int64_t(B) * T_len;
  int64_t bos = i_n * T_len;
  if constexpr (IS_VARLEN) {
    bos = tl::load(cu_seqlens + i_n);
    int64_t eos = tl::load(cu_seqlens + i_n + 1);
    T_len = int(eos - bos);
  }
  constexpr int step = REVERSE ? -1 : 1;
  int64_t row = bos + (REVERSE ? T_len - 1 : 0); // the time step the pointers are at

  auto o_k = i_k * BK + tl::arange<0, BK>();
  auto o_v = i_v * BV + tl::arange<0, BV>();
  auto p_q = q + row * H * K + i_h * K + o_k;
  auto p_k = k + row * H * K + i_h * K + o_k;
  auto p_v = v + row * H * V + i_h * V + o_v;
  auto p_o = o + (i_k * all + row) * H * V + i_h * V + o_v;
  float b_g_gamma = 0.0f;
  if constexpr (USE_G_GAMMA)
    b_g_gamma = tl::cast<float>(tl::load(g_gamma + i_h));

  auto m_k = o_k < K;
  auto m_v = o_v < V;
  auto m_h = tl::expand_dims<1>(m_k) & tl::expand_dims<0>(m_v);
  auto b_h = tl::zeros<float, BK, BV>();

  if constexpr (USE_INITIAL_STATE) {
    auto p_h0 = h0 + i_nh * K * V + tl::expand_dims<1>(o_k) * V + tl::expand_dims<0>(o_v);
    b_h += tl::cast<float>(tl::load(p_h0, m_h, 0));
  }

  for (int t = 0; t < T_len; ++t) {
    auto b_q = tl::cast<float>(tl::load(p_q, m_k, 0)) * scale;
    auto b_k = tl::cast<float>(tl::load(p_k, m_k, 0));
    auto b_v = tl::cast<float>(tl::load(p_v, m_v, 0));
    if constexpr (USE_G) {
      float b_g = tl::cast<float>(tl::load(g + row * H + i_h));
      b_h = b_h * tl::exp(b_g);
    }
    if constexpr (USE_G_GAMMA)
      b_h = b_h * tl::exp(b_g_gamma);
    if constexpr (USE_GK) {
      auto b_gk = tl::cast<float>(tl::load(gk + row * H * K + i_h * K + o_k, m_k, 0));
      b_h = b_h * tl::exp(tl::expand_dims<1>(b_gk));
    }
    if constexpr (USE_GV) {
      auto b_gv = tl::cast<float>(tl::load(gv + row * H * V + i_h * V + o_v, m_v, 0));
      b_h = b_h * tl::exp(tl::expand_dims<0>(b_gv));
    }
    b_h += tl::expand_dims<1>(b_k) * tl::expand_dims<0>(b_v);
    auto b_o = b_h * tl::expand_dims<1>(b_q);
    auto b_o_sum = tl::sum<0>(b_o);
    tl::store(p_o, tl::cast<TO>(b_o_sum), m_v);
    p_q += step * H * K;
    p_k += step * H * K;
    p_v += step * H * V;
    p_o += step * H * V;
    row += step;
  }

  if constexpr (STORE_FINAL_STATE) {
    auto p_ht = ht + i_nh * K * V + tl::expand_dims<1>(o_k) * V + tl::expand_dims<0>(o_v);
    tl::store(p_ht, tl::cast<TH>(b_h), m_h);
  }
}

template <class TQ, class TO, class TH, int H, int K, int V, int BK, int BV, bool REVERSE,
          bool USE_G, bool USE_G_GAMMA, bool USE_GK, bool USE_GV, bool USE_INITIAL_STATE,
          bool STORE_INITIAL_STATE_GRADIENT, bool USE_FINAL_STATE_GRADIENT, bool IS_VARLEN>
TILEC_KERNEL void fused_recurrent_bwd_kernel(
    const TQ *q, const TQ *k, const TQ *v, const TQ *g, const TQ *g_gamma, const TQ *gk,
    const TQ *gv, const TO *o, const TH *h0, const TQ *do_, TO *dq, TO *dk, TO *dv, TO *dg,
    TO *dgk, TO *dgv, const TH *dht, TH *dh0, const int64_t *cu_seqlens, float scale, int B,
    int T_len) {
  int64_t i_v = tl::program_id(0), i_k = tl::program_id(1), i_nh = tl::program_id(2);
  int64_t i_n = i_nh / H, i_h = i_nh % H;

  int64_t all = int64_t(B) * T_len;
  int64_t bos = i_n * T_len;
  if constexpr (IS_VARLEN) {
    bos = tl::load(cu_seqlens + i_n);
    int64_t eos = tl::load(cu_seqlens + i_n + 1);
    T_len = int(eos - bos);
  }
  constexpr int NV = (V + BV - 1) / BV;
  constexpr int step = REVERSE ? -1 : 1;

  auto o_k = i_k * BK + tl::arange<0, BK>();
  auto o_v = i_v * BV + tl::arange<0, BV>();
  auto m_k = o_k < K;
  auto m_v = o_v < V;
  auto m_h = tl::expand_dims<1>(m_k) & tl::expand_dims<0>(m_v);

  // Forward in time (as the forward pass walks): dq.
  int64_t row = bos + (REVERSE ? T_len - 1 : 0);
  auto p_k = k + row * H * K + i_h * K + o_k;
  auto p_v = v + row * H * V + i_h * V + o_v;
  auto p_do = do_ + row * H * V + i_h * V + o_v;
  auto p_dq = dq + (i_v * all + row) * H * K + i_h * K + o_k;
  float b_g_gamma = 0.0f;
  if constexpr (USE_G_GAMMA)
    b_g_gamma = tl::cast<float>(tl::load(g_gamma + i_h));

  auto b_h = tl::zeros<float, BK, BV>();
  if constexpr (USE_INITIAL_STATE) {
    auto p_h0 = h0 + i_nh * K * V + tl::expand_dims<1>(o_k) * V + tl::expand_dims<0>(o_v);
    b_h += tl::cast<float>(tl::load(p_h0, m_h, 0));
  }

  for (int t = 0; t < T_len; ++t) {
    auto b_k = tl::cast<float>(tl::load(p_k, m_k, 0));
    auto b_v = tl::cast<float>(tl::load(p_v, m_v, 0));
    auto b_do = tl::cast<float>(tl::load(p_do, m_v, 0));
    if constexpr (USE_G) {
      float b_g = tl::cast<float>(tl::load(g + row * H + i_h));
      b_h = b_h * tl::exp(b_g);
    }
    if constexpr (USE_G_GAMMA)
      b_h = b_h * tl::exp(b_g_gamma);
    if constexpr (USE_GK) {
      auto b_gk = tl::cast<float>(tl::load(gk + row * H * K + i_h * K + o_k, m_k, 0));
      b_h = b_h * tl::exp(tl::expand_dims<1>(b_gk));
    }
    if constexpr (USE_GV) {
      auto b_gv = tl::cast<float>(tl::load(gv + row * H * V + i_h * V + o_v, m_v, 0));
      b_h = b_h * tl::exp(tl::expand_dims<0>(b_gv));
    }
    b_h += tl::expand_dims<1>(b_k) * tl::expand_dims<0>(b_v);
    auto b_dq = tl::sum<1>(b_h * tl::expand_dims<0>(b_do)) * scale;
    tl::store(p_dq, tl::cast<TO>(b_dq), m_k);

    p_k += step * H * K;
    p_v += step * H * V;
    p_do += step * H * V;
    p_dq += step * H * K;
    row += step;
  }

  // sync threads
  tl::debug_barrier();

  // Backward in time: dh, dk, dv and the decays' gradients.
  row = bos + (REVERSE ? 0 : T_len - 1);
  auto p_q = q + row * H * K + i_h * K + o_k;
  p_k = k + row * H * K + i_h * K + o_k;
  p_v = v + row * H * V + i_h * V + o_v;
  p_do = do_ + row * H * V + i_h * V + o_v;
  p_dq = dq + (i_v * all + row) * H * K + i_h * K + o_k;
  auto p_dk = dk + (i_v * all + row) * H * K + i_h * K + o_k;
  auto p_dv = dv + (i_k * all + row) * H * V + i_h * V + o_v;

  auto b_dh = tl::zeros<float, BK, BV>();
  if constexpr (USE_FINAL_STATE_GRADIENT) {
    auto p_dht = dht + i_nh * K * V + tl::expand_dims<1>(o_k) * V + tl::expand_dims<0>(o_v);
    b_dh += tl::cast<float>(tl::load(p_dht, m_h, 0));
  }

  float b_dg = 0.0f;
  auto b_dgk = tl::zeros<float, BK>();
  auto b_dgv = tl::zeros<float, BV>();
  if constexpr (USE_G)
    b_dg = tl::sum(b_h * b_dh);
  if constexpr (USE_GK)
    b_dgk = tl::sum<1>(b_h * b_dh);
  if constexpr (USE_GV)
    b_dgv = tl::sum<0>(b_h * b_dh);

  for (int t = 0; t < T_len; ++t) {
    auto b_q = tl::cast<float>(tl::load(p_q, m_k, 0));
    auto b_k = tl::cast<float>(tl::load(p_k, m_k, 0));
    auto b_v = tl::cast<float>(tl::load(p_v, m_v, 0));
    auto b_do = tl::cast<float>(tl::load(p_do, m_v, 0));
    b_dh += tl::expand_dims<1>(b_q * scale) * tl::expand_dims<0>(b_do);
    auto b_dk = tl::sum<1>(b_dh * tl::expand_dims<0>(b_v));
    auto b_dv = tl::sum<0>(b_dh * tl::expand_dims<1>(b_k));

    if constexpr (USE_G) {
      float b_g = tl::cast<float>(tl::load(g + row * H + i_h));
      auto b_dq = tl::cast<float>(tl::load(p_dq, m_k, 0));
      b_dg += tl::sum(b_q * b_dq - b_k * b_dk);
      b_dh *= tl::exp(b_g);
      tl::store(dg + ((i_k * NV + i_v) * all + row) * H + i_h, tl::cast<TO>(b_dg));
    }
    if constexpr (USE_G_GAMMA)
      b_dh *= tl::exp(b_g_gamma);
    if constexpr (USE_GK) {
      auto b_gk = tl::cast<float>(tl::load(gk + row * H * K + i_h * K + o_k, m_k, 0));
      auto b_dq = tl::cast<float>(tl::load(p_dq, m_k, 0));
      b_dgk += b_q * b_dq - b_k * b_dk;
      b_dh *= tl::expand_dims<1>(tl::exp(b_gk));
      tl::store(dgk + (i_v * all + row) * H * K + i_h * K + o_k, tl::cast<TO>(b_dgk), m_k);
    }
    if constexpr (USE_GV) {
      auto b_o = tl::cast<float>(tl::load(o + row * H * V + i_h * V + o_v, m_v, 0));
      auto b_gv = tl::cast<float>(tl::load(gv + row * H * V + i_h * V + o_v, m_v, 0));
      if (i_k == 0)
        b_dgv += b_o * b_do;
      b_dgv -= b_v * b_dv;
      b_dh *= tl::expand_dims<0>(tl::exp(b_gv));
      tl::store(dgv + (i_k * all + row) * H * V + i_h * V + o_v, tl::cast<TO>(b_dgv), m_v);
    }

    tl::store(p_dk, tl::cast<TO>(b_dk), m_k);
    tl::store(p_dv, tl::cast<TO>(b_dv), m_v);

    p_q -= step * H * K;
    p_k -= step * H * K;
    p_v -= step * H * V;
    p_do -= step * H * V;
    p_dq -= step * H * K;
    p_dk -= step * H * K;
    p_dv -= step * H * V;
    row -= step;
  }

  if constexpr (STORE_INITIAL_STATE_GRADIENT) {
    auto p_dh0 = dh0 + i_nh * K * V + tl::expand_dims<1>(o_k) * V + tl::expand_dims<0>(o_v);
    tl::store(p_dh0, tl::cast<TH>(b_dh), m_h);
  }
}
