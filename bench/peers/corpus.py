#!/usr/bin/env python3
"""The Triton originals of the corpus kernels (tests/corpus/kernels/) on bench_corpus' problems.

The argmax kernel re-implements FlagGems' (github.com/FlagOpen/FlagGems,
src/flag_gems/ops/argmax.py: argmax_kernel, Apache License 2.0) with its nvidia heuristics
(BLOCK_M 8 for M >= 4096, BLOCK_N min(4096, next power of two of N), 4 warps).

fused_moe re-implements vLLM's fused MoE kernel (github.com/vllm-project/vllm,
vllm/model_executor/layers/fused_moe/fused_moe.py: fused_moe_kernel, Apache License 2.0),
its unquantized path, with the routing tables built as tests/corpus/moe_routing.h builds them.

The kernels below are re-implementations of Liger-Kernel's
(github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/{rms_norm,layer_norm,swiglu,geglu,
rope,cross_entropy,kl_div,group_norm}.py, BSD 2-Clause licence) with the same algorithm,
blocking, block sizes and num_warps, restricted to what the tilec ports keep (RMSNorm's
"llama" casting mode with a weight; cross-entropy without class weights, soft-capping or
accuracy outputs). Rows are named as bench_corpus.cpp names them, so bench/report.py pairs
them, and GB/s uses the same byte counts. Times: triton.testing.do_bench, median; kernels that
write over their inputs (GLU backward passes, cross-entropy) get them back before every launch
(common.median_ms_restored), as bench_corpus.cpp does.
"""
import os
import sys

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

from common import emit, median_ms, report_gbs, require_gpu, uniform

ROWS = 4096
LOG2_E = tl.constexpr(1.4426950408889634)


def block_and_warps(n):
    """Liger's calculate_settings: the row rounded up to a power of two and its num_warps."""
    block = triton.next_power_of_2(n)
    warps = 32 if block >= 32768 else 16 if block >= 8192 else 8 if block >= 2048 else 4
    return block, warps


@triton.jit
def rms_norm_fwd(Y, y_stride, X, x_stride, W, RSTD, rstd_stride, n_cols, eps, offset,
                 BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(X + row * x_stride + cols, mask=mask, other=0)
    w = tl.load(W + cols, mask=mask, other=0)
    x_dtype = x.dtype
    x = x.to(tl.float32)  # llama: rstd in float
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(RSTD + row * rstd_stride, rstd)
    y = (x * rstd).to(x_dtype) * (offset + w)  # llama: the weight in the input's type
    tl.store(Y + row * y_stride + cols, y, mask=mask)


@triton.jit
def rms_norm_bwd(dY, dy_stride, dX, dx_stride, X, x_stride, X_dtype: tl.constexpr, W, RSTD,
                 rstd_stride, dW, dw_stride, n_rows, n_cols, offset, rows_per_program,
                 BLOCK_SIZE: tl.constexpr):
    block_id = tl.program_id(0).to(tl.int64)
    start = block_id * rows_per_program
    end = min((block_id + 1) * rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dw_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0) + offset
    for row in range(start, end):
        dy = tl.load(dY + row * dy_stride + cols, mask=mask, other=0.0)
        x = tl.load(X + row * x_stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(RSTD + row * rstd_stride)
        m = (dy * w).to(tl.float32)
        dx = rstd * m
        dx += rstd * (-(1 / n_cols) * rstd * rstd * tl.sum(m * x, axis=0) * x)
        dw_acc += dy * (x * rstd).to(X_dtype)
        tl.store(dX + row * dx_stride + cols, dx.to(X_dtype), mask=mask)
    tl.store(dW + block_id * dw_stride + cols, dw_acc, mask=mask)


@triton.jit
def layer_norm_fwd(Y, y_stride, X, x_stride, W, B, Mean, mean_stride, RSTD, rstd_stride, n_cols,
                   eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
    x_raw = tl.load(X + row * x_stride + cols, mask=mask, other=0.0)
    x = x_raw.to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    xc = x - mean
    xc_masked = tl.where(mask, xc, 0.0)
    var = tl.sum(xc_masked * xc_masked, axis=0) / n_cols
    rstd = tl.rsqrt(var + eps)
    tl.store(Mean + row * mean_stride, mean.to(x_raw.dtype))
    tl.store(RSTD + row * rstd_stride, rstd.to(x_raw.dtype))
    tl.store(Y + row * y_stride + cols, (xc * rstd * w + b).to(x_raw.dtype), mask=mask)


@triton.jit
def layer_norm_bwd(X, x_stride, W, Mean, mean_stride, RSTD, rstd_stride, DX, dx_stride, DW,
                   dw_stride, DB, db_stride, DY, dy_stride, n_rows, n_cols,
                   rows_per_program: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    block_id = tl.program_id(0).to(tl.int64)
    start = block_id * rows_per_program
    end = min((block_id + 1) * rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dw_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    db_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    for row in range(start, end):
        x = tl.load(X + row * x_stride + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * dy_stride + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(Mean + row * mean_stride).to(tl.float32)
        rstd = tl.load(RSTD + row * rstd_stride).to(tl.float32)
        x_hat = (x - mean) * rstd
        wdy = w * dy
        c1 = tl.sum(x_hat * wdy, axis=0) / n_cols
        c2 = tl.sum(wdy, axis=0) / n_cols
        tl.store(DX + row * dx_stride + cols, (wdy - (x_hat * c1 + c2)) * rstd, mask=mask)
        dw_acc += dy * x_hat
        db_acc += dy
    tl.store(DW + block_id * dw_stride + cols, dw_acc, mask=mask)
    tl.store(DB + block_id * db_stride + cols, db_acc, mask=mask)


@triton.jit
def swiglu_fwd(a_ptr, b_ptr, c_ptr, stride, gate, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    a_ptr += row * stride
    b_ptr += row * stride
    c_ptr += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    a = tl.load(a_ptr + cols, mask=mask, other=0).to(tl.float32) * gate
    b = tl.load(b_ptr + cols, mask=mask, other=0)
    tl.store(c_ptr + cols, (a * tl.sigmoid(a)).cast(b.dtype) * b, mask=mask)


@triton.jit
def swiglu_bwd(dc_ptr, a_ptr, b_ptr, stride, gate, n_cols: tl.constexpr,
               BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    dc_ptr += row * stride
    a_ptr += row * stride
    b_ptr += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dc = tl.load(dc_ptr + cols, mask=mask, other=0)
    a = tl.load(a_ptr + cols, mask=mask, other=0).to(tl.float32) * gate
    b = tl.load(b_ptr + cols, mask=mask, other=0)
    sig = tl.sigmoid(a)
    silu = a * sig
    tl.store(a_ptr + cols, dc * (silu * (1 - sig) + sig) * b * gate, mask=mask)
    tl.store(b_ptr + cols, dc * silu, mask=mask)


@triton.jit
def geglu_fwd(a, b, c, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    a += row * stride
    b += row * stride
    c += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(a + cols, mask=mask, other=0).to(tl.float32)
    y = tl.load(b + cols, mask=mask, other=0)
    k = 0.7978845608028654  # sqrt(2 / pi)
    t = libdevice.tanh(k * (x + 0.044715 * x * x * x))
    tl.store(c + cols, (0.5 * x * (1 + t)).cast(y.dtype) * y, mask=mask)


@triton.jit
def geglu_bwd(dc, a, b, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    dc += row * stride
    a += row * stride
    b += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    g = tl.load(dc + cols, mask=mask, other=0)
    x = tl.load(a + cols, mask=mask, other=0).to(tl.float32)
    y = tl.load(b + cols, mask=mask, other=0)
    k = 0.7978845608028654
    t = libdevice.tanh(k * (x + 0.044715 * x * x * x))
    gelu = (0.5 * x * (1 + t)).to(g.dtype).to(tl.float32)
    db = g.cast(tl.float32) * gelu
    dgelu = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * (k * (1 + 3 * 0.044715 * x * x))
    tl.store(a + cols, g * y * dgelu, mask=mask)
    tl.store(b + cols, db.to(g.dtype), mask=mask)


@triton.jit
def rope_kernel(q_ptr, q_row_stride, k_ptr, k_row_stride, cos, cos_row_stride, sin,
                sin_row_stride, sl, bs: tl.constexpr, cos_bs: tl.constexpr, n_qh: tl.constexpr,
                n_kh: tl.constexpr, hd: tl.constexpr, pad_n_qh: tl.constexpr,
                pad_n_kh: tl.constexpr, pad_hd: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                BACKWARD_PASS: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    q_ptr = q_ptr + pid * q_row_stride
    k_ptr = k_ptr + pid * k_row_stride
    batch = pid // sl
    pos = pid % sl
    cos = cos + tl.where(cos_bs == 1, pos * cos_row_stride,
                         batch * (sl * cos_row_stride) + pos * cos_row_stride)
    sin = sin + tl.where(cos_bs == 1, pos * sin_row_stride,
                         batch * (sl * sin_row_stride) + pos * sin_row_stride)
    half = tl.arange(0, pad_hd // 2)
    half_mask = half < hd // 2
    c = tl.load(cos + half, mask=half_mask, other=0)
    s = tl.load(sin + half, mask=half_mask, other=0)
    q_offs = tl.arange(0, pad_n_qh)[:, None] * hd + half[None, :]
    k_offs = tl.arange(0, pad_n_kh)[:, None] * hd + half[None, :]
    q_mask = (tl.arange(0, pad_n_qh)[:, None] < n_qh) & half_mask[None, :]
    k_mask = (tl.arange(0, pad_n_kh)[:, None] < n_kh) & half_mask[None, :]
    q1 = tl.load(q_ptr + q_offs, mask=q_mask, other=0).to(s.dtype)
    k1 = tl.load(k_ptr + k_offs, mask=k_mask, other=0).to(s.dtype)
    q2 = tl.load(q_ptr + q_offs + hd // 2, mask=q_mask, other=0).to(s.dtype)
    k2 = tl.load(k_ptr + k_offs + hd // 2, mask=k_mask, other=0).to(s.dtype)
    if not BACKWARD_PASS:
        tl.store(q_ptr + q_offs, q1 * c - q2 * s, mask=q_mask)
        tl.store(q_ptr + q_offs + hd // 2, q2 * c + q1 * s, mask=q_mask)
        tl.store(k_ptr + k_offs, k1 * c - k2 * s, mask=k_mask)
        tl.store(k_ptr + k_offs + hd // 2, k2 * c + k1 * s, mask=k_mask)
    else:
        tl.store(q_ptr + q_offs, q1 * c + q2 * s, mask=q_mask)
        tl.store(q_ptr + q_offs + hd // 2, q2 * c - q1 * s, mask=q_mask)
        tl.store(k_ptr + k_offs, k1 * c + k2 * s, mask=k_mask)
        tl.store(k_ptr + k_offs + hd // 2, k2 * c - k1 * s, mask=k_mask)


@triton.jit
def cross_entropy_kernel(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride, n_cols,
                         n_non_ignore, ignore_index, lse_square_scale, label_smoothing,
                         MEAN: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    Y_ptr += pid * Y_stride
    y = tl.load(Y_ptr)
    X_ptr += pid * X_stride
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK_SIZE):
            offs = i + tl.arange(0, BLOCK_SIZE)
            tl.store(X_ptr + offs, 0.0, mask=offs < n_cols)
        return
    loss_ptr += pid * loss_stride
    m = float("-inf")
    d = 0.0
    x_y = tl.load(X_ptr + y).cast(tl.float32)
    smooth_sum = 0.0
    eps = label_smoothing / n_cols
    # online softmax: running max and sum
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        xb = tl.load(X_ptr + offs, mask=offs < n_cols, other=float("-inf")).cast(tl.float32)
        block_max = tl.max(xb)
        if label_smoothing > 0:
            smooth_sum += tl.sum(tl.where(offs < n_cols, -eps * xb, 0.0))
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp2((m - m_new) * LOG2_E) + tl.sum(tl.exp2((xb - m_new) * LOG2_E))
        m = m_new
    lse = m + tl.log(d)
    # the gradient over the logits, then the target's element once more in float
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        xb = tl.load(X_ptr + offs, mask=offs < n_cols, other=float("-inf")).cast(tl.float32)
        xb = tl.exp2((xb - m) * LOG2_E) / d
        xb += 2 * lse_square_scale * lse * xb
        xb += -eps
        if MEAN:
            xb = xb / n_non_ignore
        tl.store(X_ptr + offs, xb, mask=offs < n_cols)
    tl.debug_barrier()
    p_y = tl.exp2((x_y - m) * LOG2_E) / d
    dx_y = p_y
    dx_y += 2 * lse_square_scale * lse * dx_y
    dx_y += -eps
    dx_y += -(1 - label_smoothing)
    if MEAN:
        dx_y = dx_y / n_non_ignore
    tl.store(X_ptr + y, dx_y)
    tl.debug_barrier()
    loss = lse - x_y
    if label_smoothing > 0:
        loss = loss * (1 - label_smoothing) + (smooth_sum + label_smoothing * lse)
    z_loss = lse_square_scale * lse * lse
    if MEAN:
        loss = loss / n_non_ignore
        z_loss = z_loss / n_non_ignore
    loss += z_loss
    tl.store(loss_ptr, loss)


@triton.jit
def kl_div_fwd(y_ptr, y_stride, gt_ptr, gt_stride, loss_ptr, loss_stride, n_cols, eps,
               BLOCK_SIZE: tl.constexpr, log_target: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    y_ptr += pid * y_stride
    gt_ptr += pid * gt_stride
    loss_ptr += pid * loss_stride
    base = tl.arange(0, BLOCK_SIZE)
    total = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + base
        mask = offs < n_cols
        y = tl.load(y_ptr + offs, mask=mask, other=0.0)
        t = tl.load(gt_ptr + offs, mask=mask, other=0.0)
        if not log_target:
            loss = t * (tl.log(tl.maximum(t, eps)) - y)
        else:
            loss = tl.exp(t) * (t - y)
        total += tl.sum(loss, axis=0)  # reductions other than "none": a row sum
    tl.store(loss_ptr, total)


@triton.jit
def kl_div_bwd(target_ptr, target_stride, grads_ptr, grads_stride, n_cols,
               BLOCK_SIZE: tl.constexpr, log_target: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    target_ptr += pid * target_stride
    grads_ptr += pid * grads_stride
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        t = tl.load(target_ptr + offs, mask=mask, other=0.0)
        if not log_target:
            res = t * -1
        else:
            res = -tl.exp(t)
        tl.store(grads_ptr + offs, res, mask=mask)


@triton.jit
def group_norm_fwd(Y, y_row_stride, y_col_stride, X, x_row_stride, x_col_stride, Mean,
                   mean_row_stride, mean_col_stride, RSTD, rstd_row_stride, rstd_col_stride, W, B,
                   hidden_size, channels_per_group, eps, BLOCK_SIZE: tl.constexpr):
    batch = tl.program_id(0)
    group = tl.program_id(1)
    X += batch * x_row_stride + group * x_col_stride
    Y += batch * y_row_stride + group * y_col_stride
    block = tl.arange(0, BLOCK_SIZE)
    s = 0.0
    sq = 0.0
    for i in tl.range(0, hidden_size, BLOCK_SIZE):
        offs = i + block
        x = tl.load(X + offs, mask=offs < hidden_size, other=0.0)
        s += tl.sum(x)
        sq += tl.sum(x * x)
    m = s / hidden_size
    rstd = tl.rsqrt(sq / hidden_size - m * m + eps)
    per_channel = hidden_size // channels_per_group
    for i in tl.range(0, hidden_size, BLOCK_SIZE):
        offs = i + block
        mask = offs < hidden_size
        x = tl.load(X + offs, mask=mask, other=m)
        channel = group * channels_per_group + offs // per_channel
        w = tl.load(W + channel, mask=mask)
        b = tl.load(B + channel, mask=mask)
        tl.store(Y + offs, (x - m) * rstd * w + b, mask=mask)
    tl.store(Mean + batch * mean_row_stride + group * mean_col_stride, m)
    tl.store(RSTD + batch * rstd_row_stride + group * rstd_col_stride, rstd)


@triton.jit
def argmax_kernel(inp, out_index, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_k = tl.program_id(1)
    m_offset = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    lowest = float("-inf")
    max_values = tl.full([BLOCK_M], dtype=tl.float32, value=lowest)
    argmax_values = tl.full([BLOCK_M], dtype=tl.int64, value=0)
    for start_n in range(0, N, BLOCK_N):
        n_offset = start_n + tl.arange(0, BLOCK_N)
        offset = m_offset[:, None] * N * K + n_offset[None, :] * K + pid_k
        mask = (m_offset[:, None] < M) & (n_offset[None, :] < N)
        vals = tl.load(inp + offset, mask=mask, other=lowest)
        local_max, local_argmax = tl.max(vals, 1, return_indices=True,
                                         return_indices_tie_break_left=True)
        update = local_max > max_values
        max_values = tl.where(update, local_max, max_values)
        argmax_values = tl.where(update, start_n + local_argmax, argmax_values)
    tl.store(out_index + m_offset * K + pid_k, argmax_values, mask=m_offset < M)


def report(name, nbytes, note, fn, restore=None):
    report_gbs("corpus", name, nbytes, note, fn, restore)


def bench_rms_norm(cols, sms):
    block, warps = block_and_warps(cols)
    x, w, dy = uniform((ROWS, cols)), uniform(cols), uniform((ROWS, cols))
    y, dx = torch.empty_like(x), torch.empty_like(x)
    rstd = torch.empty(ROWS, device="cuda", dtype=torch.float32)
    n = ROWS * cols
    note = f"BLOCK_SIZE={block} num_warps={warps}"
    report(f"rms_norm fwd bf16 {ROWS}x{cols}", 2 * n * 2 + cols * 2 + ROWS * 4, note,
           lambda: rms_norm_fwd[(ROWS,)](y, cols, x, cols, w, rstd, 1, cols, 1e-6, 0.0,
                                         BLOCK_SIZE=block, num_warps=warps))
    dw = torch.empty((sms, cols), device="cuda", dtype=torch.float32)
    rpp = triton.cdiv(ROWS, sms)
    report(f"rms_norm bwd bf16 {ROWS}x{cols}", 3 * n * 2 + ROWS * 4 + cols * 2 + sms * cols * 4,
           note + " programs=SMs",
           lambda: rms_norm_bwd[(sms,)](dy, cols, dx, cols, x, cols, tl.bfloat16, w, rstd, 1, dw,
                                        cols, ROWS, cols, 0.0, rpp, BLOCK_SIZE=block,
                                        num_warps=warps))


def bench_layer_norm(cols, sms, backward):
    block, warps = block_and_warps(cols)
    x, w, b = uniform((ROWS, cols)), uniform(cols), uniform(cols)
    y = torch.empty_like(x)
    mean = torch.empty(ROWS, device="cuda", dtype=torch.bfloat16)
    rstd = torch.empty(ROWS, device="cuda", dtype=torch.bfloat16)
    n = ROWS * cols
    note = f"BLOCK_SIZE={block} num_warps={warps}"
    report(f"layer_norm fwd bf16 {ROWS}x{cols}", 2 * n * 2 + 2 * cols * 2 + 2 * ROWS * 2, note,
           lambda: layer_norm_fwd[(ROWS,)](y, cols, x, cols, w, b, mean, 1, rstd, 1, cols, 1e-6,
                                           BLOCK_SIZE=block, num_warps=warps))
    if not backward:
        return
    mean, rstd = uniform(ROWS, 0, 0.1), uniform(ROWS, 0.9, 1.1)
    dy, dx = uniform((ROWS, cols)), torch.empty_like(x)
    dw = torch.empty((sms, cols), device="cuda", dtype=torch.float32)
    db = torch.empty_like(dw)
    rpp = triton.cdiv(ROWS, sms)
    report(f"layer_norm bwd bf16 {ROWS}x{cols}",
           3 * n * 2 + 2 * ROWS * 2 + cols * 2 + 2 * sms * cols * 4, note + " programs=SMs",
           lambda: layer_norm_bwd[(sms,)](x, cols, w, mean, 1, rstd, 1, dx, cols, dw, cols, db,
                                          cols, dy, cols, ROWS, cols, rows_per_program=rpp,
                                          BLOCK_SIZE=block, num_warps=warps))


def bench_glu(cols):
    block, warps = block_and_warps(cols)
    a, b, dc = uniform((ROWS, cols), -4, 4), uniform((ROWS, cols)), uniform((ROWS, cols))
    c = torch.empty_like(a)
    n = ROWS * cols
    shape, note = f" bf16 {ROWS}x{cols}", f"BLOCK_SIZE={block} num_warps={warps}"
    args = dict(n_cols=cols, BLOCK_SIZE=block, num_warps=warps)
    # the backward passes write da and db over a and b: every launch starts from the same a, b
    a0, b0 = a.clone(), b.clone()

    def fresh():
        a.copy_(a0)
        b.copy_(b0)

    report("swiglu fwd" + shape, 3 * n * 2, note,
           lambda: swiglu_fwd[(ROWS,)](a, b, c, cols, 1.0, **args), fresh)
    report("swiglu bwd" + shape, 5 * n * 2, note,
           lambda: swiglu_bwd[(ROWS,)](dc, a, b, cols, 1.0, **args), fresh)
    report("geglu fwd" + shape, 3 * n * 2, note,
           lambda: geglu_fwd[(ROWS,)](a, b, c, cols, **args), fresh)
    report("geglu bwd" + shape, 5 * n * 2, note,
           lambda: geglu_bwd[(ROWS,)](dc, a, b, cols, **args), fresh)


def bench_rope():
    bsz, sl, n_qh, n_kh, hd = 4, 2048, 32, 8, 128
    q, k = uniform((bsz, sl, n_qh, hd)), uniform((bsz, sl, n_kh, hd))
    cos, sin = uniform((1, sl, hd)), uniform((1, sl, hd))
    nbytes = 2 * (q.numel() + k.numel()) * 2 + 2 * sl * hd * 2
    block = max(triton.next_power_of_2(n_qh), triton.next_power_of_2(n_kh))
    for backward in (False, True):
        report(f"rope {'bwd' if backward else 'fwd'} bf16 b4 s2048 qh32 kh8 d128", nbytes,
               f"BLOCK_SIZE={block} num_warps=4",
               lambda: rope_kernel[(bsz * sl,)](q, q.stride(1), k, k.stride(1), cos,
                                                cos.stride(-2), sin, sin.stride(-2), sl, bsz, 1,
                                                n_qh, n_kh, hd, triton.next_power_of_2(n_qh),
                                                triton.next_power_of_2(n_kh),
                                                triton.next_power_of_2(hd), BLOCK_SIZE=block,
                                                BACKWARD_PASS=backward))


def bench_cross_entropy(vocab):
    block = min(65536 // 2, triton.next_power_of_2(vocab))
    x = uniform((ROWS, vocab), -4, 4)
    y = (torch.arange(ROWS, device="cuda", dtype=torch.int64) * 7919) % vocab
    loss = torch.empty(ROWS, device="cuda", dtype=torch.bfloat16)
    n = ROWS * vocab
    x0 = x.clone()  # the gradient is written over the logits
    report(f"cross_entropy bf16 {ROWS}x{vocab}", 3 * n * 2 + ROWS * 8 + ROWS * 2,
           f"BLOCK_SIZE={block} num_warps=32 reduction=mean",
           lambda: cross_entropy_kernel[(ROWS,)](x, x.stride(-2), y, 1, loss, 1, vocab, ROWS,
                                                 -100, 0.0, 0.0, MEAN=True, BLOCK_SIZE=block,
                                                 num_warps=32), lambda: x.copy_(x0))


def bench_kl_div(vocab):
    block = min(65536 // 4, triton.next_power_of_2(vocab))
    warps = 32 if block >= 32768 else 16 if block >= 8192 else 8 if block >= 2048 else 4
    y, gt = uniform((ROWS, vocab), -12, -8), uniform((ROWS, vocab), 0, 1e-4)
    loss = torch.empty(ROWS, device="cuda", dtype=torch.float32)
    grads = torch.empty_like(gt)
    n = ROWS * vocab
    note = f"BLOCK_SIZE={block} num_warps={warps}"
    report(f"kl_div fwd bf16 {ROWS}x{vocab}", 2 * n * 2 + ROWS * 4, note + " reduction=batchmean",
           lambda: kl_div_fwd[(ROWS,)](y, vocab, gt, vocab, loss, 1, vocab, 1e-10,
                                       BLOCK_SIZE=block, log_target=False, num_warps=warps))
    report(f"kl_div bwd bf16 {ROWS}x{vocab}", 2 * n * 2, note,
           lambda: kl_div_bwd[(ROWS,)](gt, vocab, grads, vocab, vocab, BLOCK_SIZE=block,
                                       log_target=False, num_warps=warps))


def bench_argmax(vocab):
    x = uniform((ROWS, vocab), -4, 4)
    out = torch.empty(ROWS, device="cuda", dtype=torch.int64)
    block_n = min(4096, triton.next_power_of_2(vocab))
    report(f"argmax dim=1 bf16 {ROWS}x{vocab}", ROWS * vocab * 2 + ROWS * 8,
           f"BLOCK_M=8 BLOCK_N={block_n} num_warps=4",
           lambda: argmax_kernel[(triton.cdiv(ROWS, 8), 1)](x, out, ROWS, vocab, 1, BLOCK_M=8,
                                                           BLOCK_N=block_n, num_warps=4))


def bench_group_norm():
    batch, channels, groups, spatial = 32, 256, 32, 1024
    cpg = channels // groups
    hidden = cpg * spatial
    x = uniform((batch, groups, hidden), dtype=torch.float32)
    y = torch.empty_like(x)
    w, b = uniform(channels, dtype=torch.float32), uniform(channels, dtype=torch.float32)
    mean = torch.empty((batch, groups), device="cuda", dtype=torch.float32)
    rstd = torch.empty_like(mean)
    block = min(65536, triton.next_power_of_2(hidden))
    report("group_norm fwd fp32 b32 c256 hw1024 g32", 2 * x.numel() * 4 + 2 * channels * 4,
           f"BLOCK_SIZE={block} num_warps=4",
           lambda: group_norm_fwd[(batch, groups)](y, y.stride(0), y.stride(1), x, x.stride(0),
                                                   x.stride(1), mean, mean.stride(0),
                                                   mean.stride(1), rstd, rstd.stride(0),
                                                   rstd.stride(1), w, b, hidden, cpg, 1e-6,
                                                   BLOCK_SIZE=block))


@triton.jit
def row_cumsum(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    offs = rows[:, None] * stride + cols[None, :]
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    v = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.cumsum(v, axis=1), mask=mask)


@triton.jit
def column_sum_atomic(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    v = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.atomic_add(out_ptr + cols, tl.sum(v, axis=0), mask=cols < N)


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    block = tl.load(x_ptr + rows[:, None] * N + cols[None, :],
                    mask=(rows[:, None] < M) & (cols[None, :] < N))
    tl.store(y_ptr + cols[:, None] * M + rows[None, :], tl.trans(block),
             mask=(cols[:, None] < N) & (rows[None, :] < M))


@triton.jit
def bias_gelu(x_ptr, b_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    v = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    v += tl.load(b_ptr + cols[None, :], mask=cols[None, :] < N, other=0.0).to(tl.float32)
    k = 0.7978845608028654
    g = 0.5 * v * (1.0 + libdevice.tanh(k * (v + 0.044715 * v * v * v)))
    tl.store(y_ptr + offs, g.to(tl.float16), mask=mask)


def bench_user_small():
    rows, cols = 65536, 1000
    x = uniform((rows, cols), dtype=torch.float32)
    y = torch.empty_like(x)
    report("row_cumsum fp32 65536x1000", 2 * x.numel() * 4, "ROWS=4 BLOCK=1024 num_warps=4",
           lambda: row_cumsum[(rows // 4,)](x, y, rows, cols, cols, ROWS=4, BLOCK=1024,
                                            num_warps=4))
    m, n = 16384, 8192
    a = uniform((m, n), dtype=torch.float32)
    out = torch.zeros(n, device="cuda", dtype=torch.float32)
    report("column_sum atomic fp32 16384x8192", 4 * m * n + 4 * n,
           "BLOCK_M=32 BLOCK_N=128 num_warps=4",
           lambda: column_sum_atomic[(m // 32, n // 128)](a, out, m, n, BLOCK_M=32, BLOCK_N=128,
                                                          num_warps=4))
    m = n = 8192
    h = uniform((m, n), dtype=torch.float16)
    ht = torch.empty_like(h)
    bias = uniform(n, dtype=torch.float16)
    report("transpose fp16 8192x8192", 2 * h.numel() * 2, "BLOCK_M=64 BLOCK_N=64 num_warps=4",
           lambda: transpose[(m // 64, n // 64)](h, ht, m, n, BLOCK_M=64, BLOCK_N=64,
                                                 num_warps=4))
    report("bias_gelu fp16 8192x8192", 2 * h.numel() * 2 + n * 2,
           "BLOCK_M=8 BLOCK_N=1024 num_warps=4",
           lambda: bias_gelu[(m // 8, n // 1024)](h, bias, ht, m, n, BLOCK_M=8, BLOCK_N=1024,
                                                  num_warps=4))


def check_user_small():
    """The small user kernels against torch at ragged sizes."""
    ok = True
    x = uniform((37, 1003), dtype=torch.float32)
    y = torch.zeros_like(x)
    row_cumsum[(10,)](x, y, 37, 1000, 1003, ROWS=4, BLOCK=1024)
    ok &= torch.allclose(y[:, :1000], x[:, :1000].cumsum(1), atol=1e-4)
    a = uniform((333, 517), dtype=torch.float32)
    out = torch.zeros(517, device="cuda", dtype=torch.float32)
    column_sum_atomic[(11, 5)](a, out, 333, 517, BLOCK_M=32, BLOCK_N=128)
    ok &= torch.allclose(out, a.sum(0), atol=1e-4)
    t = uniform((130, 75), dtype=torch.float32)
    tt = torch.empty(75, 130, device="cuda", dtype=torch.float32)
    transpose[(3, 3)](t, tt, 130, 75, BLOCK_M=64, BLOCK_N=32)
    ok &= torch.equal(tt, t.t())
    h = uniform((45, 300), -4, 4, dtype=torch.float16)
    b = uniform(300, dtype=torch.float16)
    g = torch.empty_like(h)
    bias_gelu[(3, 2)](h, b, g, 45, 300, BLOCK_M=16, BLOCK_N=256)
    want = torch.nn.functional.gelu((h.float() + b.float()), approximate="tanh").half()
    ok &= torch.allclose(g.float(), want.float(), atol=2e-3, rtol=2e-3)
    if not ok:
        print("corpus.py: a small user kernel disagrees with torch", file=sys.stderr)
    return ok


@triton.jit
def fused_moe(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr,
              num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_ak,
              stride_be, stride_bk, stride_bn, stride_cm, stride_cn,
              BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
              BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
              MUL_ROUTED_WEIGHT: tl.constexpr, top_k: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(EM, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    first_pid_m = (pid // num_pid_in_group) * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    if pid_m * BLOCK_SIZE_M >= tl.load(num_tokens_post_padded_ptr):
        return
    offs_token_id = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M).to(tl.int64)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    token_mask = offs_token < num_valid_tokens
    off_experts = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    if off_experts == -1:
        tl.store(c_ptrs, tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=c_ptr.dtype.element_ty),
                 mask=c_mask)
        return
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_token[:, None] // top_k * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + off_experts * stride_be + (offs_k[:, None] * stride_bk +
                                                offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_SIZE_K),
                    other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if MUL_ROUTED_WEIGHT:
        w = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        acc = acc * w[:, None]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=c_mask)


def moe_routing(tokens, top_k, experts, block_m, seed):
    """tests/corpus/moe_routing.h's route(), no expert off this rank: the same tables."""
    valid = tokens * top_k
    expert_of, weights, s = [], [], seed
    for t in range(tokens):
        for j in range(top_k):
            expert_of.append((t * 7 + j * 5 + t // 3) % experts)
            s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
            weights.append(0.25 + (s >> 8) / float(1 << 24))
    sorted_ids, expert_ids = [], []
    for e in range(experts):
        ids = [f for f in range(valid) if expert_of[f] == e]
        if not ids:
            continue
        ids += [valid] * (-len(ids) % block_m)
        expert_ids += [e] * (len(ids) // block_m)
        sorted_ids += ids
    post = len(sorted_ids)
    sorted_ids += [valid] * (2 * block_m)
    expert_ids += [0] * (len(sorted_ids) // block_m - len(expert_ids))
    dev = dict(device="cuda", dtype=torch.int32)
    return (torch.tensor(sorted_ids, **dev), torch.tensor(expert_ids, **dev),
            torch.tensor([post], **dev), torch.tensor(weights, device="cuda"), valid)


def run_moe(a, b, c, routing, block_m, block_n, block_k, group, mul, warps, top_k):
    ids, experts, post, weights, valid = routing
    E, N, K = b.shape
    EM = ids.numel()
    grid = (triton.cdiv(EM, block_m) * triton.cdiv(N, block_n),)
    fused_moe[grid](a, b, c, weights, ids, experts, post, N, K, EM, valid, a.stride(0),
                    a.stride(1), b.stride(0), b.stride(2), b.stride(1), c.stride(0), c.stride(1),
                    BLOCK_SIZE_M=block_m, BLOCK_SIZE_N=block_n, BLOCK_SIZE_K=block_k,
                    GROUP_SIZE_M=group, MUL_ROUTED_WEIGHT=mul, top_k=top_k, num_warps=warps,
                    num_stages=3)


def bench_moe():
    """bench_corpus.cpp's fused_moe rows: the same shapes, routing and configs."""
    tokens, top_k, E, N, K = 2048, 2, 8, 14336, 4096
    a, b = uniform((tokens, K), dtype=torch.half), uniform((E, N, K), dtype=torch.half)
    for bm, bn, bk, group, mul, warps in ((64, 64, 32, 8, True, 4), (128, 128, 64, 16, False, 8)):
        routing = moe_routing(tokens, top_k, E, bm, 7)
        c = torch.empty((routing[4], N), device="cuda", dtype=torch.half)
        ms = median_ms(lambda: run_moe(a, b, c, routing, bm, bn, bk, group, mul, warps, top_k))
        note = (f"BLOCK_SIZE_M={bm} BLOCK_SIZE_N={bn} BLOCK_SIZE_K={bk} GROUP_SIZE_M={group} "
                f"num_warps={warps} num_stages=3")
        emit(f"corpus fused_moe fp16 {tokens}x{top_k} tokens E{E} N{N} K{K} BM{bm}", "triton",
             ms, "TFLOP/s", 2.0 * routing[4] * N * K / (ms * 1e9), note)


def check_moe():
    """The peer MoE kernel against torch on a small routed problem."""
    tokens, top_k, E, N, K = 37, 2, 4, 200, 190
    a, b = uniform((tokens, K), dtype=torch.half), uniform((E, N, K), dtype=torch.half)
    routing = moe_routing(tokens, top_k, E, 64, 3)
    c = torch.full((routing[4], N), float("nan"), device="cuda", dtype=torch.half)
    run_moe(a, b, c, routing, 64, 64, 32, 8, True, 4, top_k)
    flat = torch.arange(routing[4], device="cuda")
    expert = torch.tensor([(t * 7 + j * 5 + t // 3) % E for t in range(tokens)
                           for j in range(top_k)], device="cuda")
    want = torch.einsum("fk,fnk->fn", a[flat // top_k].float(), b[expert].float())
    want = want * routing[3][:, None]
    return torch.allclose(c.float(), want, atol=2e-2, rtol=1e-2)


def check():
    """Small checks of the kernels above against torch, so that a wrong peer is not timed."""
    ok = True
    torch.manual_seed(0)
    x = torch.randn(8, 1000, device="cuda")
    w = torch.randn(1000, device="cuda")
    y, rstd = torch.empty_like(x), torch.empty(8, device="cuda")
    rms_norm_fwd[(8,)](y, 1000, x, 1000, w, rstd, 1, 1000, 1e-6, 0.0, BLOCK_SIZE=1024)
    want = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    ok &= torch.allclose(y, want, atol=1e-4, rtol=1e-4)
    logits = torch.randn(6, 1000, device="cuda")
    target = torch.tensor([3, 999, 0, 512, 257, 1], device="cuda")
    ref = logits.clone().requires_grad_(True)
    torch.nn.functional.cross_entropy(ref, target).backward()
    g, loss = logits.clone(), torch.empty(6, device="cuda")
    cross_entropy_kernel[(6,)](g, 1000, target, 1, loss, 1, 1000, 6, -100, 0.0, 0.0, MEAN=True,
                               BLOCK_SIZE=256)
    ok &= torch.allclose(g, ref.grad, atol=1e-6, rtol=1e-4)
    ok &= torch.allclose(loss.sum(), torch.nn.functional.cross_entropy(logits, target), rtol=1e-4)
    idx = torch.empty(37, device="cuda", dtype=torch.int64)
    values = torch.randn(37, 1000, device="cuda")
    argmax_kernel[(triton.cdiv(37, 8), 1)](values, idx, 37, 1000, 1, BLOCK_M=8, BLOCK_N=256)
    ok &= torch.equal(idx, values.argmax(dim=1))
    ok &= check_moe()
    if not ok:
        print("corpus.py: a peer kernel disagrees with torch", file=sys.stderr)
    return ok


def wanted(family):
    """BENCH_CORPUS_ONLY (e.g. "argmax,cross_entropy") runs only the named families."""
    only = os.environ.get("BENCH_CORPUS_ONLY", "")
    return not only or family in only.split(",")


def main():
    require_gpu()
    ok = check()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    if wanted("rms_norm"):
        bench_rms_norm(4096, sms)
        bench_rms_norm(8192, sms)
    if wanted("layer_norm"):
        bench_layer_norm(4096, sms, backward=True)
        bench_layer_norm(8192, sms, backward=False)
    if wanted("glu"):
        bench_glu(14336)
    if wanted("rope"):
        bench_rope()
    for family, bench in (("cross_entropy", bench_cross_entropy), ("kl_div", bench_kl_div),
                          ("argmax", bench_argmax)):
        if wanted(family):
            for vocab in (32000, 128256):
                bench(vocab)
    if wanted("group_norm"):
        bench_group_norm()
    if wanted("user_small"):
        ok &= check_user_small()
        bench_user_small()
    if wanted("moe"):
        bench_moe()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
