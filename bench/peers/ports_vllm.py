"""vLLM's decode attention over a paged KV cache, the kernels bench_ports.cpp times,
re-implemented in Triton for bench/peers/ports.py from the original
(github.com/vllm-project/vllm, vllm/attention/ops/triton_decode_attention.py at 0f490657,
adapted there from SGLang and LightLLM; Apache License 2.0), with its algorithm, blockings and
launch choices for NVIDIA GPUs: key blocks of 64 (MHA) or 32 (grouped), up to 16 query heads
a program, 4 warps and 2 stages for every kernel."""
import triton
import triton.language as tl


@triton.jit
def _tanh(x):
    return 2 * tl.sigmoid(2 * x) - 1


# _fwd_kernel_stage1: one query head, a key split; q.k as a product and a row sum.
@triton.jit
def stage1_kernel(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_Seqlen, Att_Out,
                  stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh,
                  stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os,
                  kv_group_num: tl.constexpr, BLOCK_DMODEL: tl.constexpr, BLOCK_DV: tl.constexpr,
                  BLOCK_N: tl.constexpr, NUM_KV_SPLITS: tl.constexpr, PAGE_SIZE: tl.constexpr,
                  logit_cap: tl.constexpr, Lk: tl.constexpr, Lv: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    split_kv_id = tl.program_id(2)
    cur_kv_head = cur_head // kv_group_num
    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_dv = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lk
    mask_dv = offs_dv < Lv
    seq_len = tl.load(B_Seqlen + cur_batch)
    q = tl.load(Q + cur_batch * stride_qbs + cur_head * stride_qh + offs_d, mask=mask_d, other=0.0)
    per_split = tl.cdiv(seq_len, NUM_KV_SPLITS)
    start = per_split * split_kv_id
    end = tl.minimum(start + per_split, seq_len)
    e_max = -float("inf")
    e_sum = 0.0
    acc = tl.zeros([BLOCK_DV], dtype=tl.float32)
    if end > start:
        for start_n in range(start, end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            page = tl.load(Req_to_tokens + stride_req_to_tokens_b * cur_batch + offs_n // PAGE_SIZE,
                           mask=offs_n < end, other=0)
            kv_loc = page * PAGE_SIZE + offs_n % PAGE_SIZE
            k = tl.load(K_Buffer + kv_loc[:, None] * stride_buf_kbs + cur_kv_head * stride_buf_kh
                        + offs_d[None, :], mask=(offs_n[:, None] < end) & mask_d[None, :],
                        other=0.0)
            qk = tl.sum(q[None, :] * k, 1)
            qk *= sm_scale
            if logit_cap > 0:
                qk = logit_cap * _tanh(qk / logit_cap)
            qk = tl.where(offs_n < end, qk, float("-inf"))
            v = tl.load(V_Buffer + kv_loc[:, None] * stride_buf_vbs + cur_kv_head * stride_buf_vh
                        + offs_dv[None, :], mask=(offs_n[:, None] < end) & mask_dv[None, :],
                        other=0.0)
            n_e_max = tl.maximum(tl.max(qk, 0), e_max)
            re_scale = tl.exp(e_max - n_e_max)
            p = tl.exp(qk - n_e_max)
            acc *= re_scale
            acc += tl.sum(p[:, None] * v, 0)
            e_sum = e_sum * re_scale + tl.sum(p, 0)
            e_max = n_e_max
        base = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os
        tl.store(Att_Out + base + offs_dv, acc / e_sum, mask=mask_dv)
        tl.store(Att_Out + base + Lv, e_max + tl.log(e_sum))


# _fwd_grouped_kernel_stage1: up to BLOCK_H query heads of one KV head; q.k and p.v by tl.dot,
# the rope dimensions (BLOCK_DPE > 0) by a second dot.
@triton.jit
def grouped_stage1_kernel(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_Seqlen, Att_Out,
                          stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs,
                          stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob,
                          stride_mid_oh, stride_mid_os, kv_group_num: tl.constexpr,
                          q_head_num: tl.constexpr, BLOCK_DMODEL: tl.constexpr,
                          BLOCK_DPE: tl.constexpr, BLOCK_DV: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_H: tl.constexpr, NUM_KV_SPLITS: tl.constexpr,
                          PAGE_SIZE: tl.constexpr, logit_cap: tl.constexpr, Lk: tl.constexpr,
                          Lv: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head_id = tl.program_id(1)
    cur_kv_head = cur_head_id // tl.cdiv(kv_group_num, BLOCK_H)
    split_kv_id = tl.program_id(2)
    if kv_group_num > BLOCK_H:
        VALID_BLOCK_H: tl.constexpr = BLOCK_H
    else:
        VALID_BLOCK_H: tl.constexpr = kv_group_num
    cur_head = cur_head_id * VALID_BLOCK_H + tl.arange(0, BLOCK_H)
    mask_h = (cur_head < (cur_head_id + 1) * VALID_BLOCK_H) & (cur_head < q_head_num)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_dv = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lk
    mask_dv = offs_dv < Lv
    seq_len = tl.load(B_Seqlen + cur_batch)
    q = tl.load(Q + cur_batch * stride_qbs + cur_head[:, None] * stride_qh + offs_d[None, :],
                mask=mask_h[:, None] & mask_d[None, :], other=0.0)
    if BLOCK_DPE > 0:
        offs_dpe = BLOCK_DMODEL + tl.arange(0, BLOCK_DPE)
        mask_dpe = offs_dpe < Lk
        qpe = tl.load(Q + cur_batch * stride_qbs + cur_head[:, None] * stride_qh
                      + offs_dpe[None, :], mask=mask_h[:, None] & mask_dpe[None, :], other=0.0)
    per_split = tl.cdiv(seq_len, NUM_KV_SPLITS)
    start = per_split * split_kv_id
    end = tl.minimum(start + per_split, seq_len)
    e_max = tl.zeros([BLOCK_H], dtype=tl.float32) - float("inf")
    e_sum = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, BLOCK_DV], dtype=tl.float32)
    if end > start:
        for start_n in range(start, end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            page = tl.load(Req_to_tokens + stride_req_to_tokens_b * cur_batch + offs_n // PAGE_SIZE,
                           mask=offs_n < end, other=0)
            kv_loc = page * PAGE_SIZE + offs_n % PAGE_SIZE
            k = tl.load(K_Buffer + kv_loc[None, :] * stride_buf_kbs + cur_kv_head * stride_buf_kh
                        + offs_d[:, None], mask=(offs_n[None, :] < end) & mask_d[:, None],
                        other=0.0)
            qk = tl.dot(q, k.to(q.dtype))
            if BLOCK_DPE > 0:
                kpe = tl.load(K_Buffer + kv_loc[None, :] * stride_buf_kbs
                              + cur_kv_head * stride_buf_kh + offs_dpe[:, None],
                              mask=(offs_n[None, :] < end) & mask_dpe[:, None], other=0.0)
                qk += tl.dot(qpe, kpe.to(qpe.dtype))
            qk *= sm_scale
            if logit_cap > 0:
                qk = logit_cap * _tanh(qk / logit_cap)
            qk = tl.where(mask_h[:, None] & (offs_n[None, :] < end), qk, float("-inf"))
            v = tl.load(V_Buffer + kv_loc[:, None] * stride_buf_vbs + cur_kv_head * stride_buf_vh
                        + offs_dv[None, :], mask=(offs_n[:, None] < end) & mask_dv[None, :],
                        other=0.0)
            n_e_max = tl.maximum(tl.max(qk, 1), e_max)
            re_scale = tl.exp(e_max - n_e_max)
            p = tl.exp(qk - n_e_max[:, None])
            acc *= re_scale[:, None]
            acc += tl.dot(p.to(v.dtype), v)
            e_sum = e_sum * re_scale + tl.sum(p, 1)
            e_max = n_e_max
        base = cur_batch * stride_mid_ob + split_kv_id * stride_mid_os
        tl.store(Att_Out + base + cur_head[:, None] * stride_mid_oh + offs_dv[None, :],
                 acc / e_sum[:, None], mask=mask_h[:, None] & mask_dv[None, :])
        tl.store(Att_Out + base + cur_head * stride_mid_oh + Lv, e_max + tl.log(e_sum),
                 mask=mask_h)


# _fwd_kernel_stage2: the splits' outputs merged by their log-sum-exps.
@triton.jit
def stage2_kernel(Mid_O, o, B_Seqlen, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_obs,
                  stride_oh, NUM_KV_SPLITS: tl.constexpr, BLOCK_DV: tl.constexpr,
                  Lv: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    seq_len = tl.load(B_Seqlen + cur_batch)
    offs_d = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lv
    e_sum = 0.0
    e_max = -float("inf")
    acc = tl.zeros([BLOCK_DV], dtype=tl.float32)
    offs_v = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + offs_d
    offs_logic = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + Lv
    for split_kv_id in range(0, NUM_KV_SPLITS):
        per_split = tl.cdiv(seq_len, NUM_KV_SPLITS)
        start = per_split * split_kv_id
        end = tl.minimum(start + per_split, seq_len)
        if end > start:
            tv = tl.load(Mid_O + offs_v + split_kv_id * stride_mid_os, mask=mask_d, other=0.0)
            tlogic = tl.load(Mid_O + offs_logic + split_kv_id * stride_mid_os)
            n_e_max = tl.maximum(tlogic, e_max)
            old_scale = tl.exp(e_max - n_e_max)
            acc *= old_scale
            exp_logic = tl.exp(tlogic - n_e_max)
            acc += exp_logic * tv
            e_sum = e_sum * old_scale + exp_logic
            e_max = n_e_max
    tl.store(o + cur_batch * stride_obs + cur_head * stride_oh + offs_d, acc / e_sum, mask=mask_d)


def decode_attention(q, k_buffer, v_buffer, o, req_to_token, b_seq_len, attn_logits,
                     num_kv_splits, sm_scale, page_size, logit_cap=0.0):
    """q [batch, H, Lk], caches [slots, H_KV, L], o [batch, H, Lv], attn_logits [batch, H,
    splits, Lv + 1] (float); as vLLM's decode_attention_fwd with its CUDA choices."""
    batch, H = q.shape[0], q.shape[1]
    Lk, Lv = k_buffer.shape[-1], v_buffer.shape[-1]
    group = H // k_buffer.shape[-2]
    common = (q, k_buffer, v_buffer, sm_scale, req_to_token, b_seq_len, attn_logits,
              req_to_token.stride(0), q.stride(0), q.stride(1), k_buffer.stride(-3),
              k_buffer.stride(-2), v_buffer.stride(-3), v_buffer.stride(-2),
              attn_logits.stride(0), attn_logits.stride(1), attn_logits.stride(2))
    if group == 1:
        stage1_kernel[(batch, H, num_kv_splits)](
            *common, kv_group_num=1, BLOCK_DMODEL=triton.next_power_of_2(Lk),
            BLOCK_DV=triton.next_power_of_2(Lv), BLOCK_N=64, NUM_KV_SPLITS=num_kv_splits,
            PAGE_SIZE=page_size, logit_cap=logit_cap, Lk=Lk, Lv=Lv, num_warps=4, num_stages=2)
    else:
        if Lk == 576:
            block_dmodel, block_dpe = 512, 64
        else:
            block_dmodel, block_dpe = triton.next_power_of_2(Lk), 0
        grouped_stage1_kernel[(batch, triton.cdiv(H, min(16, group)), num_kv_splits)](
            *common, kv_group_num=group, q_head_num=H, BLOCK_DMODEL=block_dmodel,
            BLOCK_DPE=block_dpe, BLOCK_DV=triton.next_power_of_2(Lv), BLOCK_N=32, BLOCK_H=16,
            NUM_KV_SPLITS=num_kv_splits, PAGE_SIZE=page_size, logit_cap=logit_cap, Lk=Lk, Lv=Lv,
            num_warps=4, num_stages=2)
    stage2_kernel[(batch, H)](attn_logits, o, b_seq_len, attn_logits.stride(0),
                              attn_logits.stride(1), attn_logits.stride(2), o.stride(0),
                              o.stride(1), NUM_KV_SPLITS=num_kv_splits,
                              BLOCK_DV=triton.next_power_of_2(Lv), Lv=Lv, num_warps=4,
                              num_stages=2)


# vllm/attention/ops/triton_merge_attn_states.py at 0a345fd0: merge_attn_states_kernel.
@triton.jit
def merge_attn_states_kernel(output, output_lse, prefix_output, prefix_lse, suffix_output,
                             suffix_lse, HEAD_SIZE: tl.constexpr, PADDED_HEAD_SIZE: tl.constexpr,
                             OUTPUT_LSE: tl.constexpr):
    token_idx = tl.program_id(0)
    num_tokens = tl.num_programs(0)
    head_idx = tl.program_id(1)
    num_heads = tl.num_programs(1)
    p_lse = tl.load(prefix_lse + head_idx * num_tokens + token_idx)
    s_lse = tl.load(suffix_lse + head_idx * num_tokens + token_idx)
    p_lse = float("-inf") if p_lse == float("inf") else p_lse
    s_lse = float("-inf") if s_lse == float("inf") else s_lse
    max_lse = tl.maximum(p_lse, s_lse)
    p_lse = p_lse - max_lse
    s_lse = s_lse - max_lse
    out_se = tl.exp(p_lse) + tl.exp(s_lse)
    if OUTPUT_LSE:
        tl.store(output_lse + head_idx * num_tokens + token_idx, tl.log(out_se) + max_lse)
    head_arange = tl.arange(0, PADDED_HEAD_SIZE)
    head_mask = head_arange < HEAD_SIZE
    base = token_idx * num_heads * HEAD_SIZE + head_idx * HEAD_SIZE + head_arange
    p_out = tl.load(prefix_output + base, mask=head_mask)
    s_out = tl.load(suffix_output + base, mask=head_mask)
    p_scale = tl.exp(p_lse) / out_se
    s_scale = tl.exp(s_lse) / out_se
    tl.store(output + base, p_out * p_scale + s_out * s_scale, mask=head_mask)


def merge_attn_states(output, prefix_output, prefix_lse, suffix_output, suffix_lse,
                      output_lse=None):
    """output, prefix/suffix outputs [tokens, heads, head size]; lse [heads, tokens]."""
    tokens, heads, head_size = output.shape
    merge_attn_states_kernel[(tokens, heads)](output, output_lse, prefix_output, prefix_lse,
                                              suffix_output, suffix_lse, head_size,
                                              triton.next_power_of_2(head_size),
                                              output_lse is not None)


# vllm/model_executor/layers/quantization/utils/fp8_utils.py: _per_token_group_quant_fp8 and
# _silu_mul_per_token_group_quant_fp8_colmajor.
@triton.jit
def per_token_group_quant_fp8_kernel(y_ptr, y_q_ptr, y_s_ptr, group_size, y_num_columns,
                                     y_row_stride, eps, fp8_min, fp8_max,
                                     use_ue8m0: tl.constexpr, BLOCK: tl.constexpr):
    groups_per_row = y_num_columns // group_size
    g_id = tl.program_id(0)
    row = g_id // groups_per_row
    row_g_id = g_id % groups_per_row
    y_ptr += row.to(tl.int64) * y_row_stride + row_g_id.to(tl.int64) * group_size
    y_q_ptr += g_id.to(tl.int64) * group_size
    y_s_ptr += g_id
    cols = tl.arange(0, BLOCK)
    mask = cols < group_size
    y = tl.load(y_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.maximum(tl.max(tl.abs(y)), eps)
    scale_raw = absmax / fp8_max
    y_s = tl.math.exp2(tl.ceil(tl.log2(scale_raw))) if use_ue8m0 else scale_raw
    y_q = tl.clamp(y / y_s, fp8_min, fp8_max).to(y_q_ptr.dtype.element_ty)
    tl.store(y_q_ptr + cols, y_q, mask=mask)
    tl.store(y_s_ptr, y_s)


@triton.jit
def silu_mul_group_quant_colmajor_kernel(y_ptr, y_q_ptr, y_s_ptr, M, N, y_s_col_stride: tl.int64,
                                         eps, fp8_min, fp8_max, use_ue8m0: tl.constexpr,
                                         GROUP_SIZE: tl.constexpr, BLOCK_M: tl.constexpr,
                                         BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    N_2 = N // 2
    m_offset = pid_m * BLOCK_M
    n_offset = pid_n * BLOCK_N
    if m_offset >= M:
        return
    offs_n = tl.arange(0, BLOCK_N).to(tl.int64)
    offs_m = tl.arange(0, BLOCK_M).to(tl.int64)
    act_in_ptrs = y_ptr + m_offset * N + n_offset + offs_m[:, None] * N + offs_n[None, :]
    act_in = tl.load(act_in_ptrs).to(tl.float32)
    mul_in = tl.load(act_in_ptrs + N_2)
    silu_out = (act_in / (1.0 + tl.exp(-act_in))).to(y_ptr.dtype.element_ty)
    y = (silu_out * mul_in).to(tl.float32)
    absmax = tl.maximum(tl.max(tl.abs(y), axis=1), eps)
    scale_raw = absmax / fp8_max
    y_s = tl.math.exp2(tl.ceil(tl.log2(scale_raw))) if use_ue8m0 else scale_raw
    y_s = tl.reshape(y_s, (BLOCK_M, 1))
    y_q = tl.clamp(y / y_s, fp8_min, fp8_max).to(y_q_ptr.dtype.element_ty)
    y_q_ptrs = y_q_ptr + m_offset * N_2 + n_offset + offs_m[:, None] * N_2 + offs_n[None, :]
    tl.store(y_q_ptrs, y_q)
    group_id = n_offset // GROUP_SIZE
    y_s_ptrs = y_s_ptr + group_id * y_s_col_stride + m_offset + offs_m
    tl.store(y_s_ptrs, tl.reshape(y_s, (BLOCK_M,)))


def per_token_group_quant_fp8(x, q, s, group_size, use_ue8m0):
    groups = x.numel() // group_size
    per_token_group_quant_fp8_kernel[(groups,)](x, q, s, group_size, x.shape[1], x.stride(0),
                                                1e-10, -448.0, 448.0, use_ue8m0=use_ue8m0,
                                                BLOCK=triton.next_power_of_2(group_size),
                                                num_warps=1, num_stages=1)


def silu_mul_group_quant_colmajor(x, q, s_t, use_ue8m0):
    """s_t: the scales as [groups, M] (their column-major [M, groups] view's storage)."""
    M, N = x.shape
    silu_mul_group_quant_colmajor_kernel[(M // 8, (N // 2) // 128)](
        x, q, s_t, M, N, s_t.stride(0), 1e-10, -448.0, 448.0, use_ue8m0, 128, 8, 128)
