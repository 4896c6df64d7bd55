#!/usr/bin/env python3
"""Peers of bench_attention.cpp: the same attention problems in torch and Triton.

- torch: torch.nn.functional.scaled_dot_product_attention with its default backend choice,
  then with the flash and the cuDNN backends by name (torch.nn.attention.sdpa_kernel); a
  backend that refuses a problem is skipped with a note on stderr. Provider "torch": the
  report keeps the best backend per problem and names it.
- triton: the fused attention of Triton's tutorial 06 (python/tutorials/06-fused-attention.py,
  MIT licence), written again below from the tutorial: forward with online softmax in base 2
  saving M, backward as preprocess (delta) + one kernel whose programs do a dK/dV block then a
  dQ block, K pre-scaled by sm_scale / ln 2, the tutorial's block sizes. The tutorial's current
  version reads through tensor descriptors (TMA) on Hopper; this one uses pointer tiles as its
  earlier versions did. Grouped-query rows have no Triton row (the tutorial has no GQA).

Problems: fp16, [Z, H, N, D] contiguous, Z = 4, H = 32, N = 1024, 4096, 16384, D = 64 and 128,
causal and not, and H_KV = 8 at N = 4096, D = 128. Names match bench_attention's rows.
TFLOP/s: 4 * Z * H * N^2 * D for the forward, half when causal, 2.5 times that for the backward.
The backward is timed as o.backward(dO) (as the tutorial's benchmark). Triton's results are
compared with SDPA's before timing; a mismatch is reported and the script exits 1 after the
other rows. BENCH_ATTENTION_N (e.g. "1024,4096") limits the sequence lengths and
BENCH_ATTENTION_D (e.g. "64") the head dimensions.
"""
import os
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

from common import emit, median_ms, require_gpu

Z, H = 4, 32
LENGTHS = (1024, 4096, 16384)
HEAD_DIMS = (64, 128)
GQA_H_KV = 8


# ---- Triton: tutorial 06 -------------------------------------------------------------------

@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, start_m, qk_scale, offs_m, offs_n, offs_d,
                    N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    HEAD_DIM: tl.constexpr, STAGE: tl.constexpr):
    # STAGE 1: keys left of the diagonal block; 2: the diagonal block (masked); 3: all keys.
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    for start_n in tl.range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cols = start_n + offs_n
        k_t = tl.load(k_base + cols[None, :] * HEAD_DIM + offs_d[:, None])  # K^T block
        qk = tl.dot(q, k_t)
        if STAGE == 2:
            mask = offs_m[:, None] >= cols[None, :]
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_ij = tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_base + cols[:, None] * HEAD_DIM + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        l_i = l_i * alpha + l_ij
        m_i = m_ij
    return acc, l_i, m_i


def _fwd_keep(conf):
    # As the tutorial: 8 warps only for the large tiles.
    return not (conf.kwargs["BLOCK_M"] * conf.kwargs["BLOCK_N"] < 128 * 128
                and conf.num_warps == 8)


FWD_CONFIGS = [
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_stages=s, num_warps=w)
    for bm in (64, 128) for bn in (32, 64, 128) for s in (2, 3, 4) for w in (4, 8)
    if bn <= bm  # the diagonal stage covers BLOCK_M keys in BLOCK_N steps
]
FWD_CONFIGS = [c for c in FWD_CONFIGS if _fwd_keep(c)]


@triton.autotune(configs=FWD_CONFIGS, key=["N_CTX", "HEAD_DIM"])
@triton.jit
def _attn_fwd(Q, K, V, sm_scale, M, Out, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1 / ln(2)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    if STAGE & 1:  # off-diagonal blocks (causal) or every block (not causal)
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K + base, V + base, start_m, qk_scale,
                                        offs_m, offs_n, offs_d, N_CTX, BLOCK_M, BLOCK_N,
                                        HEAD_DIM, 4 - STAGE)
    if STAGE & 2:  # the diagonal block
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K + base, V + base, start_m, qk_scale,
                                        offs_m, offs_n, offs_d, N_CTX, BLOCK_M, BLOCK_N,
                                        HEAD_DIM, 2)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             acc.to(Out.type.element_ty))


@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, N_CTX, BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    off_d = tl.arange(0, HEAD_DIM)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    o = tl.load(O + base + off_m[:, None] * HEAD_DIM + off_d[None, :])
    do = tl.load(DO + base + off_m[:, None] * HEAD_DIM + off_d[None, :]).to(tl.float32)
    tl.store(Delta + off_hz * N_CTX + off_m, tl.sum(o * do, axis=1))


@triton.jit
def _attn_bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, stride_d, N_CTX,
                   BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr,
                   start_n, start_m, num_steps, MASK: tl.constexpr):
    # This program's keys against num_steps blocks of BLOCK_M1 queries from start_m.
    offs_m = start_m + tl.arange(0, BLOCK_M1)
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None] * stride_d
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)
    curr_m = start_m
    for _ in range(num_steps):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)  # K is pre-scaled: base-2 scores
        pT = tl.math.exp2(qkT - m[None, :])
        if MASK:
            pT = tl.where(offs_m[None, :] >= offs_n[:, None], pT, 0.0)
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(tl.float16), do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = (pT * (dpT - Di[None, :])).to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += BLOCK_M1
        qT_ptrs += BLOCK_M1 * stride_tok
        do_ptrs += BLOCK_M1 * stride_tok
    return dk, dv


@triton.jit
def _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, N_CTX,
                 BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr, HEAD_DIM: tl.constexpr,
                 start_m, start_n, num_steps, MASK: tl.constexpr):
    # This program's queries against num_steps blocks of BLOCK_N2 keys from start_n.
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_n = start_n + tl.arange(0, BLOCK_N2)
    offs_k = tl.arange(0, HEAD_DIM)
    kT_ptrs = K + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    vT_ptrs = V + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    Di = tl.load(D + offs_m)
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)
    curr_n = start_n
    for _ in range(num_steps):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        qk = tl.dot(q, kT)
        p = tl.math.exp2(qk - m)
        if MASK:
            offs_n = curr_n + tl.arange(0, BLOCK_N2)
            p = tl.where(offs_m[:, None] >= offs_n[None, :], p, 0.0)
        dp = tl.dot(do, vT).to(tl.float32)
        ds = (p * (dp - Di[:, None])).to(tl.float16)
        dq += tl.dot(ds, tl.trans(kT))
        curr_n += BLOCK_N2
        kT_ptrs += BLOCK_N2 * stride_tok
        vT_ptrs += BLOCK_N2 * stride_tok
    return dq


@triton.jit
def _attn_bwd(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, stride_z, stride_h, stride_tok, stride_d,
              H, N_CTX, BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,
              BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr, BLK_SLICE_FACTOR: tl.constexpr,
              HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    LN2: tl.constexpr = 0.6931471824645996
    bhid = tl.program_id(2)
    off_chz = (bhid * N_CTX).to(tl.int64)
    adj = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)
    Q += adj
    K += adj
    V += adj
    DO += adj
    DQ += adj
    DK += adj
    DV += adj
    M += off_chz
    D += off_chz
    offs_k = tl.arange(0, HEAD_DIM)

    # dK and dV of keys [start_n, start_n + BLOCK_N1).
    start_n = pid * BLOCK_N1
    start_m = 0
    MASK_BLOCK_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    if CAUSAL:  # the diagonal block first, masked, in smaller steps
        start_m = start_n
        num_steps = BLOCK_N1 // MASK_BLOCK_M1
        dk, dv = _attn_bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, stride_d, N_CTX,
                                MASK_BLOCK_M1, BLOCK_N1, HEAD_DIM, start_n, start_m, num_steps,
                                MASK=True)
        start_m += num_steps * MASK_BLOCK_M1
    num_steps = (N_CTX - start_m) // BLOCK_M1
    dk, dv = _attn_bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, stride_d, N_CTX, BLOCK_M1,
                            BLOCK_N1, HEAD_DIM, start_n, start_m, num_steps, MASK=False)
    tl.store(DV + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d, dv)
    dk *= sm_scale
    tl.store(DK + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d, dk)

    # dQ of queries [start_m, start_m + BLOCK_M2).
    start_m = pid * BLOCK_M2
    start_n = 0
    num_steps = N_CTX // BLOCK_N2
    MASK_BLOCK_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    q = tl.load(Q + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    do = tl.load(DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    m = tl.load(M + offs_m)
    m = m[:, None]
    if CAUSAL:  # the diagonal block, masked, then the blocks left of it
        end_n = start_m + BLOCK_M2
        num_steps = BLOCK_M2 // MASK_BLOCK_N2
        dq = _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, N_CTX, BLOCK_M2,
                          MASK_BLOCK_N2, HEAD_DIM, start_m, end_n - num_steps * MASK_BLOCK_N2,
                          num_steps, MASK=True)
        end_n -= num_steps * MASK_BLOCK_N2
        num_steps = end_n // BLOCK_N2
        start_n = end_n - num_steps * BLOCK_N2
    dq = _attn_bwd_dq(dq, q, K, V, do, m, D, stride_tok, stride_d, N_CTX, BLOCK_M2, BLOCK_N2,
                      HEAD_DIM, start_m, start_n, num_steps, MASK=False)
    dq *= LN2  # K was scaled by sm_scale / ln 2
    tl.store(DQ + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d, dq)


class _Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, causal, sm_scale):
        batch, heads, n_ctx, head_dim = q.shape
        o = torch.empty_like(q)
        M = torch.empty((batch, heads, n_ctx), device=q.device, dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(n_ctx, meta["BLOCK_M"]), batch * heads, 1)
        _attn_fwd[grid](q, k, v, sm_scale, M, o, n_ctx, HEAD_DIM=head_dim,
                        STAGE=3 if causal else 1)
        ctx.save_for_backward(q, k, v, o, M)
        ctx.sm_scale, ctx.causal = sm_scale, causal
        return o

    @staticmethod
    def backward(ctx, do):
        q, k, v, o, M = ctx.saved_tensors
        do = do.contiguous()
        batch, heads, n_ctx, head_dim = q.shape
        dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        PRE_BLOCK = 128
        NUM_WARPS, NUM_STAGES = 4, 5
        BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2 = 32, 128, 128, 32
        BLK_SLICE_FACTOR = 2
        RCP_LN2 = 1.4426950408889634
        arg_k = k * (ctx.sm_scale * RCP_LN2)
        assert n_ctx % PRE_BLOCK == 0 and n_ctx % BLOCK_N1 == 0
        delta = torch.empty_like(M)
        _attn_bwd_preprocess[(n_ctx // PRE_BLOCK, batch * heads)](
            o, do, delta, n_ctx, BLOCK_M=PRE_BLOCK, HEAD_DIM=head_dim)
        _attn_bwd[(n_ctx // BLOCK_N1, 1, batch * heads)](
            q, arg_k, v, ctx.sm_scale, do, dq, dk, dv, M, delta, q.stride(0), q.stride(1),
            q.stride(2), q.stride(3), heads, n_ctx, BLOCK_M1=BLOCK_M1, BLOCK_N1=BLOCK_N1,
            BLOCK_M2=BLOCK_M2, BLOCK_N2=BLOCK_N2, BLK_SLICE_FACTOR=BLK_SLICE_FACTOR,
            HEAD_DIM=head_dim, num_warps=NUM_WARPS, num_stages=NUM_STAGES, CAUSAL=ctx.causal)
        return dq, dk, dv, None, None


triton_attention = _Attention.apply


# ---- benchmark -----------------------------------------------------------------------------

def name(direction, h_kv, n, d, causal):
    gqa = f" HKV{h_kv}" if h_kv != H else ""
    return (f"fused_attention {direction} fp16 Z{Z} H{H}{gqa} N{n} D{d} "
            + ("causal" if causal else "non-causal"))


def sdpa_backends():
    """(note, context factory) for the default choice and the flash and cuDNN backends."""
    from contextlib import nullcontext
    out = [("sdpa default backend", nullcontext)]
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        for label, attr in (("flash", "FLASH_ATTENTION"), ("cuDNN", "CUDNN_ATTENTION")):
            backend = getattr(SDPBackend, attr, None)
            if backend is not None:
                out.append((f"sdpa {label} backend", lambda b=backend: sdpa_kernel(b)))
    except ImportError as e:
        print(f"attention.py: torch.nn.attention unavailable ({e}); default backend only",
              file=sys.stderr)
    return out


def bench_problem(h_kv, n, d, causal, failures):
    torch.manual_seed(0)
    shape_q, shape_kv = (Z, H, n, d), (Z, h_kv, n, d)
    q = torch.empty(shape_q, device="cuda", dtype=torch.float16).normal_(0.0, 0.5)
    k = torch.empty(shape_kv, device="cuda", dtype=torch.float16).normal_(0.0, 0.5)
    v = torch.empty(shape_kv, device="cuda", dtype=torch.float16).normal_(0.0, 0.5)
    do = torch.randn_like(q)
    for t in (q, k, v):
        t.requires_grad_(True)
    sm_scale = 1.0 / d ** 0.5
    fwd_flops = 4.0 * Z * H * n * n * d * (0.5 if causal else 1.0)
    kwargs = {"is_causal": causal}
    if h_kv != H:
        kwargs["enable_gqa"] = True
    fwd_name, bwd_name = name("fwd", h_kv, n, d, causal), name("bwd", h_kv, n, d, causal)

    ref = None
    for note, context in sdpa_backends():
        try:
            with context():
                o = F.scaled_dot_product_attention(q, k, v, **kwargs)
                if ref is None:
                    o.backward(do, retain_graph=True)
                    ref = (o.detach().clone(), q.grad.clone(), k.grad.clone(), v.grad.clone())
                    q.grad = k.grad = v.grad = None
                ms = median_ms(lambda: F.scaled_dot_product_attention(q, k, v, **kwargs))
                emit(fwd_name, "torch", ms, "TFLOP/s", fwd_flops / (ms * 1e9), note)
                ms = median_ms(lambda: o.backward(do, retain_graph=True),
                               grad_to_none=[q, k, v])
                emit(bwd_name, "torch", ms, "TFLOP/s", 2.5 * fwd_flops / (ms * 1e9), note)
            del o
        except Exception as e:  # a backend that does not take this problem
            print(f"attention.py: {fwd_name}: {note} skipped: {type(e).__name__}: {e}",
                  file=sys.stderr)
        q.grad = k.grad = v.grad = None

    if h_kv == H and ref is not None:
        try:
            o = triton_attention(q, k, v, causal, sm_scale)
            o.backward(do, retain_graph=True)
            got = (o.detach(), q.grad, k.grad, v.grad)
            # The tutorial's test: atol 1e-2; gradients summed over long rows get some rtol.
            close = [torch.allclose(g.float(), r.float(), atol=tol, rtol=rtol)
                     for g, r, tol, rtol in zip(got, ref, (1e-2, 2e-2, 2e-2, 2e-2),
                                                (0, 1e-2, 1e-2, 1e-2))]
            q.grad = k.grad = v.grad = None
            if not all(close):
                print(f"attention.py: triton {fwd_name} mismatch against SDPA "
                      f"(O, dQ, dK, dV close: {close})", file=sys.stderr)
                failures.append(fwd_name)
            else:
                ms = median_ms(lambda: triton_attention(q, k, v, causal, sm_scale))
                emit(fwd_name, "triton", ms, "TFLOP/s", fwd_flops / (ms * 1e9),
                     "tutorial 06 forward, " + str(_attn_fwd.best_config))
                ms = median_ms(lambda: o.backward(do, retain_graph=True),
                               grad_to_none=[q, k, v])
                emit(bwd_name, "triton", ms, "TFLOP/s", 2.5 * fwd_flops / (ms * 1e9),
                     "tutorial 06 backward (32x128 dK/dV, 128x32 dQ, 4 warps, 5 stages)")
            del o
        except Exception as e:
            print(f"attention.py: triton {fwd_name} failed: {type(e).__name__}: {e}",
                  file=sys.stderr)
            failures.append(fwd_name)
    del q, k, v, do, ref
    torch.cuda.empty_cache()


def env_ints(name, fallback):
    env = os.environ.get(name, "")
    return tuple(int(x) for x in env.split(",") if x) if env else fallback


def main():
    require_gpu()
    failures = []
    head_dims = env_ints("BENCH_ATTENTION_D", HEAD_DIMS)
    for d in head_dims:
        for causal in (False, True):
            for n in env_ints("BENCH_ATTENTION_N", LENGTHS):
                bench_problem(H, n, d, causal, failures)
    if 128 in head_dims:
        for causal in (False, True):
            bench_problem(GQA_H_KV, 4096, 128, causal, failures)
    if failures:
        print(f"attention.py: {len(failures)} failure(s): {', '.join(failures)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
