// Attention for decoding over a paged KV cache, split along the keys, ported from vLLM
// (github.com/vllm-project/vllm, vllm/attention/ops/triton_decode_attention.py at 0f490657:
// _fwd_kernel_stage1, _fwd_grouped_kernel_stage1, _fwd_kernel_stage2 and tanh; itself adapted
// from SGLang and LightLLM; Apache License 2.0).
//
// One query token per sequence. Stage 1: a program takes one sequence, one query head (MHA) or
// up to BLOCK_H heads of one KV head (grouped: GQA, MQA, MLA), and one of NUM_KV_SPLITS equal
// pieces of the sequence's keys; it finds each key's slot through the page table
// (Req_to_tokens: page numbers, PAGE_SIZE tokens a page), keeps an online softmax and writes
// its piece's normalized output and log-sum-exp to Att_Out [batch, heads, NUM_KV_SPLITS,
// Lv + 1] (float). Stage 2: a program per (sequence, head) merges the pieces. The MHA kernel
// takes q.k with a multiply and a row sum, the grouped one with tl::dot; with BLOCK_DPE > 0
// (MLA: Lk = 576 as 512 + 64) the key's last BLOCK_DPE dimensions go through a second dot.
//
// Differences from the original: logit_cap (a tl.constexpr float there) is a float argument,
// since C++17 has no float template parameters; its `if logit_cap > 0` is a run-time branch.
// The element type T of q and the cache is a template parameter. In the grouped kernel the
// rope part of q (qpe) is loaded in the loop where it is used, since a C++ variable declared in
// one `if constexpr` block is not visible in the next. VALID_BLOCK_H is a constexpr local. In
// the MHA kernel the scores are cast to float before `qk *= sm_scale`: Triton promotes 16-bit
// scores times a float argument to float, tilec keeps a tile's type.
#include <tilec/tl.h>

// Tanh as a scaled sigmoid, as the original writes it.
TILEC_FUNC auto tanh_(auto x) { return 2 * tl::sigmoid(2 * x) - 1; }

template <class T, int kv_group_num, int BLOCK_DMODEL, int BLOCK_DV, int BLOCK_N, int NUM_KV_SPLITS,
          int PAGE_SIZE, int Lk, int Lv>
TILEC_KERNEL void _fwd_kernel_stage1(const T *Q, const T *K_Buffer, const T *V_Buffer,
                                     float sm_scale, const int32_t *Req_to_tokens,
                                     const int32_t *B_Seqlen, float *Att_Out,
                                     int stride_req_to_tokens_b, int stride_qbs, int stride_qh,
                                     int stride_buf_kbs, int stride_buf_kh, int stride_buf_vbs,
                                     int stride_buf_vh, int stride_mid_ob, int stride_mid_oh,
                                     int stride_mid_os, float logit_cap) {
  int cur_batch = tl::program_id(0);
  int cur_head = tl::program_id(1);
  int split_kv_id = tl::program_id(2);

  int cur_kv_head = cur_head / kv_group_num;

  auto offs_d = tl::arange<0, BLOCK_DMODEL>();
  auto offs_dv = tl::arange<0, BLOCK_DV>();
  auto mask_d = offs_d < Lk;
  auto mask_dv = offs_dv < Lv;
  int cur_batch_seq_len = tl::load(B_Seqlen + cur_batch);
  int cur_batch_req_idx = cur_batch;

  auto off_q = cur_batch * stride_qbs + cur_head * stride_qh + offs_d;
  auto q = tl::load(Q + off_q, mask_d, 0.0f);

  int kv_len_per_split = tl::cdiv(cur_batch_seq_len, NUM_KV_SPLITS);
  int split_kv_start = kv_len_per_split * split_kv_id;
  int split_kv_end = tl::minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len);

  float e_max = -INFINITY;
  float e_sum = 0.0f;
  auto acc = tl::zeros<float, BLOCK_DV>();

  if (split_kv_end > split_kv_start) {
    for (int start_n = split_kv_start; start_n < split_kv_end; start_n += BLOCK_N) {
      auto offs_n = start_n + tl::arange<0, BLOCK_N>();
      auto kv_page_number =
          tl::load(Req_to_tokens + stride_req_to_tokens_b * cur_batch_req_idx + offs_n / PAGE_SIZE,
                   offs_n < split_kv_end, 0);
      auto kv_loc = kv_page_number * PAGE_SIZE + offs_n % PAGE_SIZE;
      auto offs_buf_k = tl::expand_dims<1>(kv_loc) * stride_buf_kbs + cur_kv_head * stride_buf_kh +
                        tl::expand_dims<0>(offs_d);
      auto k = tl::load(K_Buffer + offs_buf_k,
                        (tl::expand_dims<1>(offs_n) < split_kv_end) & tl::expand_dims<0>(mask_d),
                        0.0f);
      // Triton's `qk *= sm_scale` makes 16-bit scores float (a float argument promotes them).
      auto qk = tl::cast<float>(tl::sum<1>(tl::expand_dims<0>(q) * k));
      qk *= sm_scale;

      if (logit_cap > 0)
        qk = logit_cap * tanh_(qk / logit_cap);

      qk = tl::where(offs_n < split_kv_end, qk, -INFINITY);

      auto offs_buf_v = tl::expand_dims<1>(kv_loc) * stride_buf_vbs + cur_kv_head * stride_buf_vh +
                        tl::expand_dims<0>(offs_dv);
      auto v = tl::load(V_Buffer + offs_buf_v,
                        (tl::expand_dims<1>(offs_n) < split_kv_end) & tl::expand_dims<0>(mask_dv),
                        0.0f);

      float n_e_max = tl::maximum(tl::max<0>(qk), e_max);
      float re_scale = tl::exp(e_max - n_e_max);
      auto p = tl::exp(qk - n_e_max);
      acc *= re_scale;
      acc += tl::sum<0>(tl::expand_dims<1>(p) * v);

      e_sum = e_sum * re_scale + tl::sum<0>(p);
      e_max = n_e_max;
    }

    auto offs_mid_o =
        cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + offs_dv;
    tl::store(Att_Out + offs_mid_o, acc / e_sum, mask_dv);

    int offs_mid_o_1 =
        cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + Lv;
    tl::store(Att_Out + offs_mid_o_1, e_max + tl::log(e_sum));
  }
}

template <class T, int kv_group_num, int q_head_num, int BLOCK_DMODEL, int BLOCK_DPE, int BLOCK_DV,
          int BLOCK_N, int BLOCK_H, int NUM_KV_SPLITS, int PAGE_SIZE, int Lk, int Lv>
TILEC_KERNEL void _fwd_grouped_kernel_stage1(
    const T *Q, const T *K_Buffer, const T *V_Buffer, float sm_scale, const int32_t *Req_to_tokens,
    const int32_t *B_Seqlen, float *Att_Out, int stride_req_to_tokens_b, int stride_qbs,
    int stride_qh, int stride_buf_kbs, int stride_buf_kh, int stride_buf_vbs, int stride_buf_vh,
    int stride_mid_ob, int stride_mid_oh, int stride_mid_os, float logit_cap) {
  int cur_batch = tl::program_id(0);
  int cur_head_id = tl::program_id(1);
  int cur_kv_head = cur_head_id / tl::cdiv(kv_group_num, BLOCK_H);
  int split_kv_id = tl::program_id(2);

  constexpr int VALID_BLOCK_H = kv_group_num > BLOCK_H ? BLOCK_H : kv_group_num;
  auto cur_head = cur_head_id * VALID_BLOCK_H + tl::arange<0, BLOCK_H>();
  auto mask_h = cur_head < (cur_head_id + 1) * VALID_BLOCK_H;
  mask_h = mask_h & (cur_head < q_head_num);

  auto offs_d = tl::arange<0, BLOCK_DMODEL>();
  auto offs_dv = tl::arange<0, BLOCK_DV>();
  auto mask_d = offs_d < Lk;
  auto mask_dv = offs_dv < Lv;
  int cur_batch_seq_len = tl::load(B_Seqlen + cur_batch);
  int cur_batch_req_idx = cur_batch;

  auto offs_q =
      cur_batch * stride_qbs + tl::expand_dims<1>(cur_head) * stride_qh + tl::expand_dims<0>(offs_d);
  auto q = tl::load(Q + offs_q, tl::expand_dims<1>(mask_h) & tl::expand_dims<0>(mask_d), 0.0f);

  int kv_len_per_split = tl::cdiv(cur_batch_seq_len, NUM_KV_SPLITS);
  int split_kv_start = kv_len_per_split * split_kv_id;
  int split_kv_end = tl::minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len);

  auto e_max = tl::zeros<float, BLOCK_H>() - INFINITY;
  auto e_sum = tl::zeros<float, BLOCK_H>();
  auto acc = tl::zeros<float, BLOCK_H, BLOCK_DV>();

  if (split_kv_end > split_kv_start) {
    for (int start_n = split_kv_start; start_n < split_kv_end; start_n += BLOCK_N) {
      auto offs_n = start_n + tl::arange<0, BLOCK_N>();
      auto kv_page_number =
          tl::load(Req_to_tokens + stride_req_to_tokens_b * cur_batch_req_idx + offs_n / PAGE_SIZE,
                   offs_n < split_kv_end, 0);
      auto kv_loc = kv_page_number * PAGE_SIZE + offs_n % PAGE_SIZE;
      auto offs_buf_k = tl::expand_dims<0>(kv_loc) * stride_buf_kbs + cur_kv_head * stride_buf_kh +
                        tl::expand_dims<1>(offs_d);
      auto k = tl::load(K_Buffer + offs_buf_k,
                        (tl::expand_dims<0>(offs_n) < split_kv_end) & tl::expand_dims<1>(mask_d),
                        0.0f);
      auto qk = tl::dot(q, tl::cast<T>(k));
      if constexpr (BLOCK_DPE > 0) {
        auto offs_dpe = BLOCK_DMODEL + tl::arange<0, BLOCK_DPE>();
        auto mask_dpe = offs_dpe < Lk;
        auto off_qpe = cur_batch * stride_qbs + tl::expand_dims<1>(cur_head) * stride_qh +
                       tl::expand_dims<0>(offs_dpe);
        auto qpe = tl::load(Q + off_qpe, tl::expand_dims<1>(mask_h) & tl::expand_dims<0>(mask_dpe),
                            0.0f);
        auto offs_buf_kpe = tl::expand_dims<0>(kv_loc) * stride_buf_kbs +
                            cur_kv_head * stride_buf_kh + tl::expand_dims<1>(offs_dpe);
        auto kpe = tl::load(K_Buffer + offs_buf_kpe,
                            (tl::expand_dims<0>(offs_n) < split_kv_end) &
                                tl::expand_dims<1>(mask_dpe),
                            0.0f);
        qk += tl::dot(qpe, tl::cast<T>(kpe));
      }
      qk *= sm_scale;

      if (logit_cap > 0)
        qk = logit_cap * tanh_(qk / logit_cap);

      qk = tl::where(tl::expand_dims<1>(mask_h) & (tl::expand_dims<0>(offs_n) < split_kv_end), qk,
                     -INFINITY);

      auto offs_buf_v = tl::expand_dims<1>(kv_loc) * stride_buf_vbs + cur_kv_head * stride_buf_vh +
                        tl::expand_dims<0>(offs_dv);
      auto v = tl::load(V_Buffer + offs_buf_v,
                        (tl::expand_dims<1>(offs_n) < split_kv_end) & tl::expand_dims<0>(mask_dv),
                        0.0f);

      auto n_e_max = tl::maximum(tl::max<1>(qk), e_max);
      auto re_scale = tl::exp(e_max - n_e_max);
      auto p = tl::exp(qk - tl::expand_dims<1>(n_e_max));
      acc *= tl::expand_dims<1>(re_scale);
      acc += tl::dot(tl::cast<T>(p), v);

      e_sum = e_sum * re_scale + tl::sum<1>(p);
      e_max = n_e_max;
    }

    auto offs_mid_o = cur_batch * stride_mid_ob + tl::expand_dims<1>(cur_head) * stride_mid_oh +
                      split_kv_id * stride_mid_os + tl::expand_dims<0>(offs_dv);
    tl::store(Att_Out + offs_mid_o, acc / tl::expand_dims<1>(e_sum),
              tl::expand_dims<1>(mask_h) & tl::expand_dims<0>(mask_dv));

    auto offs_mid_o_1 =
        cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + Lv;
    tl::store(Att_Out + offs_mid_o_1, e_max + tl::log(e_sum), mask_h);
  }
}

template <class TO, int NUM_KV_SPLITS, int BLOCK_DV, int Lv>
TILEC_KERNEL void _fwd_kernel_stage2(const float *Mid_O, TO *o, const int32_t *B_Seqlen,
                                     int stride_mid_ob, int stride_mid_oh, int stride_mid_os,
                                     int stride_obs, int stride_oh) {
  int cur_batch = tl::program_id(0);
  int cur_head = tl::program_id(1);

  int cur_batch_seq_len = tl::load(B_Seqlen + cur_batch);

  auto offs_d = tl::arange<0, BLOCK_DV>();
  auto mask_d = offs_d < Lv;

  float e_sum = 0.0f;
  float e_max = -INFINITY;
  auto acc = tl::zeros<float, BLOCK_DV>();

  auto offs_v = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + offs_d;
  int offs_logic = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + Lv;

  for (int split_kv_id = 0; split_kv_id < NUM_KV_SPLITS; split_kv_id++) {
    int kv_len_per_split = tl::cdiv(cur_batch_seq_len, NUM_KV_SPLITS);
    int split_kv_start = kv_len_per_split * split_kv_id;
    int split_kv_end = tl::minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len);

    if (split_kv_end > split_kv_start) {
      auto tv = tl::load(Mid_O + offs_v + split_kv_id * stride_mid_os, mask_d, 0.0f);
      float tlogic = tl::load(Mid_O + offs_logic + split_kv_id * stride_mid_os);
      float n_e_max = tl::maximum(tlogic, e_max);

      float old_scale = tl::exp(e_max - n_e_max);
      acc *= old_scale;
      float exp_logic = tl::exp(tlogic - n_e_max);
      acc += exp_logic * tv;

      e_sum = e_sum * old_scale + exp_logic;
      e_max = n_e_max;
    }
  }

  tl::store(o + cur_batch * stride_obs + cur_head * stride_oh + offs_d, tl::cast<TO>(acc / e_sum),
            mask_d);
}
