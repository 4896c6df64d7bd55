#!/usr/bin/env python3
"""The Triton originals of the ports that bench_ports.cpp times, on its problems.

The kernels re-implement Liger-Kernel's, Unsloth's, FlagGems', Mamba's, DeepSeek-V3's, vLLM's,
flash-linear-attention's and Triton's tutorials' (ports_liger.py ... ports_tutorials.py: one file per source with its licence, each kernel
citing its original file). check() (ports_check.py) first compares each with torch at a small
odd size; a disagreement is reported and makes the exit status 1, the timings still run. Rows
are named as bench_ports.cpp names them, with the same shapes, input ranges, configs and byte
counts, so bench/report.py pairs them; torch rows where one call does the same work (softmax,
LayerNorm, cumsum, vector norm, var_mean). Times: triton.testing.do_bench, median; kernels
that write over their inputs get them back before every launch (common.median_ms_restored),
as bench_ports.cpp does. BENCH_PORTS_ONLY (e.g. "jsd,cumsum") runs only the named kernels.
"""
import os
import sys

import torch
import triton
import triton.language as tl

import ports_deepseek as deepseek
import ports_fla as fla
import ports_flaggems as flaggems
import ports_liger as liger
import ports_mamba as mamba
import ports_tutorials as tutorials
import ports_unsloth as unsloth
import ports_vllm as vllm
from common import emit, median_ms, report_gbs, require_gpu, uniform
from ports_check import check

ROWS = 4096
VOCAB = 32000


def report(name, nbytes, note, fn, restore=None, provider="triton"):
    report_gbs("ports", name, nbytes, note, fn, restore, provider)


def rows_x(cols):
    return f"{ROWS}x{cols}"


def labels(vocab):
    return (torch.arange(ROWS, device="cuda", dtype=torch.int64) * 7919) % vocab


def keeper(*tensors):
    """A restore for kernels that write over `tensors`: copies them back from clones."""
    saved = [t.clone() for t in tensors]

    def restore():
        for t, s in zip(tensors, saved):
            t.copy_(s)
    return restore


def warps_for(block):
    """Liger's and Unsloth's num_warps for a block size (calculate_settings)."""
    return 32 if block >= 32768 else 16 if block >= 8192 else 8 if block >= 2048 else 4


# --- Liger-Kernel ---------------------------------------------------------------------------

def bench_jsd():
    n = ROWS * VOCAB
    x, y = uniform((ROWS, VOCAB), -12, -8), uniform((ROWS, VOCAB), -12, -8)
    dx = torch.empty_like(x)
    loss = torch.empty((ROWS, VOCAB), device="cuda", dtype=torch.float32)
    block = min(65536, triton.next_power_of_2(VOCAB))
    report(f"jsd bf16 {rows_x(VOCAB)}", 2 * n * 2 + n * 4 + n * 2,
           f"BLOCK_SIZE={block} num_warps=4 beta=0.5",
           lambda: liger.jsd(x, y, loss, dx, 0.5, block, 4))


def bench_tvd():
    n = ROWS * VOCAB
    p, q = uniform((ROWS, VOCAB), 0, 1e-4), uniform((ROWS, VOCAB), 0, 1e-4)
    grads = torch.empty_like(p)
    loss = torch.empty(ROWS, device="cuda", dtype=torch.float32)
    block = min(16384, triton.next_power_of_2(VOCAB))
    warps = warps_for(block)
    report(f"tvd bf16 {rows_x(VOCAB)}", 3 * n * 2 + ROWS * 4,
           f"BLOCK_SIZE={block} num_warps={warps} reduction=batchmean",
           lambda: liger.tvd(p, q, loss, grads, 1.0 / ROWS, block, warps))


def bench_dyt(sms):
    N = 4096
    n = ROWS * N
    x, y = uniform((ROWS, N)), torch.empty((ROWS, N), device="cuda", dtype=torch.bfloat16)
    alpha = torch.full((1,), 0.5, device="cuda", dtype=torch.bfloat16)
    gamma, beta, dy = uniform(N), uniform(N), uniform((ROWS, N))
    dx = torch.empty_like(dy)
    da = torch.zeros((sms, triton.cdiv(N, 512)), device="cuda", dtype=torch.float32)
    dg = torch.empty((sms, N), device="cuda", dtype=torch.float32)
    db = torch.empty_like(dg)
    report(f"dyt fwd bf16 {rows_x(N)}", 2 * n * 2 + 2 * N * 2,
           "BLOCK_N=2048 num_warps=8 num_stages=1",
           lambda: liger.dyt_fwd(x, y, alpha, gamma, beta, 2048, 8, 1))
    report(f"dyt bwd bf16 {rows_x(N)}", 3 * n * 2 + N * 2 + 2 * sms * N * 4,
           "BLOCK_N=4096 num_warps=16 num_stages=2 programs=SMs",
           lambda: liger.dyt_bwd(dy, dx, da, dg, db, x, alpha, gamma, 4096, 16, 2))


def bench_sparsemax():
    N = 4096
    n = ROWS * N
    x, tau, dy = uniform((ROWS, N), -3, 3), uniform(ROWS, 0.5, 1.5), uniform((ROWS, N))
    o, dx = torch.empty_like(x), torch.empty_like(x)
    report(f"sparsemax fwd bf16 {rows_x(N)}", 2 * n * 2 + ROWS * 2,
           "block_size=4096 num_warps=8", lambda: liger.sparsemax_fwd(x, tau, o, N, 8))
    report(f"sparsemax bwd bf16 {rows_x(N)}", 3 * n * 2,
           "block_size=4096 num_warps=8", lambda: liger.sparsemax_bwd(o, dy, dx, N, 8))


def bench_fused_add_rms_norm(sms):
    N = 4096
    n = ROWS * N
    x, r, w = uniform((ROWS, N)), uniform((ROWS, N)), uniform(N)
    y, s = torch.empty_like(x), torch.empty_like(x)
    rstd = uniform(ROWS, 0.9, 1.1, torch.float32)
    block, warps = triton.next_power_of_2(N), warps_for(N)
    cfg = f"BLOCK_SIZE={block} num_warps={warps} num_stages=2"
    report(f"fused_add_rms_norm fwd bf16 {rows_x(N)}", 4 * n * 2 + N * 2 + ROWS * 4, cfg,
           lambda: liger.fused_add_rms_norm_fwd(y, s, x, r, w, rstd, 1e-6, block, warps, 2))
    dy, ds = uniform((ROWS, N)), uniform((ROWS, N))
    dx = torch.empty_like(dy)
    dw = torch.empty((sms, N), device="cuda", dtype=torch.float32)
    report(f"fused_add_rms_norm bwd bf16 {rows_x(N)}",
           4 * n * 2 + N * 2 + ROWS * 4 + sms * N * 4, cfg + " programs=SMs",
           lambda: liger.fused_add_rms_norm_bwd(dy, ds, dx, s, w, rstd, dw, block, warps, 2,
                                            tl.bfloat16))


# --- Unsloth --------------------------------------------------------------------------------

def bench_unsloth_rms_layernorm():
    N = 4096
    n = ROWS * N
    x, w, dy = uniform((ROWS, N)), uniform(N), uniform((ROWS, N))
    y = torch.empty_like(x)
    r = uniform(ROWS, 0.9, 1.1, torch.float32)
    block, warps = triton.next_power_of_2(N), warps_for(N)
    cfg = f"BLOCK_SIZE={block} num_warps={warps}"
    report(f"unsloth_rms_layernorm fwd bf16 {rows_x(N)}", 2 * n * 2 + N * 2 + ROWS * 4, cfg,
           lambda: unsloth.rms_layernorm_fwd(y, x, w, r, 1e-6, block, warps))
    report(f"unsloth_rms_layernorm bwd bf16 {rows_x(N)}", 3 * n * 2 + N * 2 + ROWS * 4, cfg,
           lambda: unsloth.rms_layernorm_bwd(dy, x, w, r, block, warps), keeper(dy))


def bench_unsloth_geglu():
    N = 14336
    n = ROWS * N
    e, g, dw = uniform((ROWS, N), -4, 4), uniform((ROWS, N), -2, 2), uniform((ROWS, N))
    h = torch.empty_like(e)
    fresh = keeper(e, g, dw)  # the backward passes write over all three
    for form, exact in (("approx", False), ("exact", True)):
        report(f"unsloth_geglu {form} fwd bf16 {rows_x(N)}", 3 * n * 2,
               "BLOCK_SIZE=1024 num_warps=4", lambda: unsloth.geglu_fwd(e, g, h, exact), fresh)
        report(f"unsloth_geglu {form} bwd bf16 {rows_x(N)}", 6 * n * 2,
               "BLOCK_SIZE=1024 num_warps=4", lambda: unsloth.geglu_bwd(dw, e, g, exact), fresh)


def bench_unsloth_cross_entropy():
    n = ROWS * VOCAB
    x, y = uniform((ROWS, VOCAB), -4, 4), labels(VOCAB)
    loss = torch.empty(ROWS, device="cuda", dtype=torch.float32)
    lse = uniform(ROWS, 12, 12.5, torch.float32)
    dloss = torch.full((ROWS,), 1.0 / ROWS, device="cuda")
    block = triton.next_power_of_2(VOCAB)
    report(f"unsloth_cross_entropy fwd bf16 {rows_x(VOCAB)}", n * 2 + ROWS * (8 + 4 + 4),
           f"BLOCK_SIZE={block} num_warps={warps_for(block)}",
           lambda: unsloth.cross_entropy_fwd(x, loss, lse, y, block, warps_for(block)))
    report(f"unsloth_cross_entropy bwd bf16 {rows_x(VOCAB)}", 2 * n * 2 + ROWS * (4 + 4 + 8),
           "BLOCK_SIZE=4096 num_warps=8",
           lambda: unsloth.cross_entropy_bwd(x, dloss, lse, y, 4096, 8), keeper(x))
    del x
    V, chunks = 256000, triton.cdiv(256000, 65536)  # Gemma 2, soft-capped at 30
    n = ROWS * V
    x, y = uniform((ROWS, V), -4, 4), labels(V)
    lse = torch.empty((ROWS, chunks), device="cuda", dtype=torch.float32)
    report(f"unsloth_cross_entropy chunked fwd softcap bf16 {rows_x(V)}",
           n * 2 + ROWS * (8 + 4 + 4 * chunks), f"BLOCK_SIZE=65536 num_warps=32 chunks={chunks}",
           lambda: unsloth.chunked_cross_entropy_fwd(x, loss, lse, y, 65536, 32, softcap=30.0))


# --- FlagGems -------------------------------------------------------------------------------

def bench_softmax():
    for N in (4096, VOCAB, 128256):
        tile = triton.next_power_of_2(N) if N <= 32768 else 4096
        warps = 4 if tile < 2048 else 8 if tile < 4096 else 16
        x = uniform((ROWS, N), -4, 4)
        y = torch.empty_like(x)
        name, nbytes = f"softmax fwd bf16 {rows_x(N)}", 2 * ROWS * N * 2
        report(name, nbytes, f"TILE_N={tile} num_warps={warps}",
               lambda: flaggems.softmax_fwd(y, x, tile, warps))
        report(name, nbytes, "torch.softmax", lambda: torch.softmax(x, -1), provider="torch")
    N = 4096
    y, dy = uniform((ROWS, N), 0, 1e-3), uniform((ROWS, N))
    dx = torch.empty_like(y)
    name, nbytes = f"softmax bwd bf16 {rows_x(N)}", 3 * ROWS * N * 2
    report(name, nbytes, "TILE_M=1 TILE_N=1024 num_warps=4",
           lambda: flaggems.softmax_bwd(y, dy, dx, 1, 1024, 4))
    report(name, nbytes, "torch._softmax_backward_data",
           lambda: torch._softmax_backward_data(dy, y, -1, y.dtype), provider="torch")


def bench_var_mean():
    N = 4096
    n = ROWS * N
    x = uniform((ROWS, N), -3, 5)
    var, mean = (torch.empty(ROWS, device="cuda", dtype=x.dtype) for _ in range(2))
    name = f"var_mean dim=1 bf16 {rows_x(N)}"
    report(name, n * 2 + 2 * ROWS * 2, "BLOCK_M=4 BLOCK_N=1024 num_warps=8",
           lambda: flaggems.var_mean_rows(x, var, mean, 4, 1024, 8))
    report(name, n * 2 + 2 * ROWS * 2, "torch.var_mean", lambda: torch.var_mean(x, dim=1),
           provider="torch")
    blocks = triton.cdiv(n, 1024)
    acc, avg, count = (torch.empty(blocks, device="cuda", dtype=x.dtype) for _ in range(3))
    name = f"var_mean all bf16 {rows_x(N)}"
    report(name, n * 2 + 2 * 2, f"BLOCK_N=1024 then {triton.next_power_of_2(blocks)} num_warps=4",
           lambda: flaggems.var_mean_all(x, acc, avg, count, var, mean))
    report(name, n * 2 + 2 * 2, "torch.var_mean", lambda: torch.var_mean(x), provider="torch")


def bench_vector_norm():
    N = 4096
    n = ROWS * N
    x = uniform((ROWS, N), -2, 2)
    out = torch.empty(ROWS, device="cuda", dtype=x.dtype)
    name = f"vector_norm dim=1 bf16 {rows_x(N)}"
    report(name, n * 2 + ROWS * 2, "BLOCK_M=4 BLOCK_N=1024 num_warps=4",
           lambda: flaggems.l2_norm_rows(x, out, 4, 1024, 4))
    report(name, n * 2 + ROWS * 2, "torch.linalg.vector_norm",
           lambda: torch.linalg.vector_norm(x, dim=1), provider="torch")
    block, mid_size, block_mid = flaggems.l2_norm_all_sizes(n)
    mid = torch.empty(mid_size, device="cuda", dtype=x.dtype)
    name = f"vector_norm all bf16 {rows_x(N)}"
    report(name, n * 2 + 2, f"BLOCK_SIZE={block} BLOCK_MID={block_mid} num_warps=4",
           lambda: flaggems.l2_norm_all(x, mid, out))
    report(name, n * 2 + 2, "torch.linalg.vector_norm", lambda: torch.linalg.vector_norm(x),
           provider="torch")


def bench_cumsum(sms):
    def rows(name, M, N, note):
        x = uniform((M, N), dtype=torch.float32)
        out = torch.empty_like(x)
        report(name, 2 * M * N * 4, note, lambda: flaggems.cumsum_rows(x, out, sms))
        report(name, 2 * M * N * 4, "torch.cumsum", lambda: torch.cumsum(x, 1), provider="torch")

    def chunked(N):
        tiles = triton.cdiv(N, 4096)
        ctas = min(tiles, 4 * sms)
        return (f"TILE_SIZE=4096 num_ctas={ctas} ROOT_SCAN_TILE_SIZE="
                f"{triton.next_power_of_2(ctas)} num_warps=8")

    rows(f"cumsum dim=1 fp32 {rows_x(4096)}", ROWS, 4096, "TILE_SIZE=4096 num_warps=8")
    rows(f"cumsum dim=1 fp32 {rows_x(VOCAB)}", ROWS, VOCAB, chunked(VOCAB))
    rows("cumsum 1-D fp32 2^26", 1, 1 << 26, chunked(1 << 26))
    B, C = 8192, 4096
    x = uniform((1, B, C), dtype=torch.float32)
    out = torch.empty_like(x)
    block, parts = flaggems.cumsum_column_parts(B)
    partials = [torch.empty((1, parts, C), device="cuda"), torch.empty((1, 1, C), device="cuda")]
    name = f"cumsum dim=0 fp32 {B}x{C}"
    report(name, 2 * B * C * 4, f"BLOCK_SIZE={block} then {parts} num_warps=4",
           lambda: flaggems.cumsum_columns(x, out, partials))
    report(name, 2 * B * C * 4, "torch.cumsum", lambda: torch.cumsum(x, 1), provider="torch")


def bench_layer_norm():
    for N, tile in ((4096, 4096), (8192, 2048)):
        x, w, b = uniform((ROWS, N), -3, 5), uniform(N), uniform(N)
        y = torch.empty_like(x)
        mean, rstd = (torch.empty(ROWS, device="cuda", dtype=x.dtype) for _ in range(2))
        name = f"layer_norm fwd bf16 {rows_x(N)}"
        nbytes = 2 * ROWS * N * 2 + 2 * N * 2 + 2 * ROWS * 2
        report(name, nbytes, f"TILE_N={tile} num_warps=8",
               lambda: flaggems.layer_norm(x, y, w, b, mean, rstd, 1e-5, tile, 8))
        report(name, nbytes, "torch.nn.functional.layer_norm",
               lambda: torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5), provider="torch")


def bench_weight_norm():
    M = N = 4096
    v = uniform((M, N), dtype=torch.float32)
    out = torch.empty_like(v)
    g, norm = uniform(M, 0.5, 2, torch.float32), torch.empty(M, device="cuda")
    report("weight_norm dim=0 fp32 4096x4096", 2 * M * N * 4 + 2 * M * 4,
           "BLOCK_ROW_SIZE=4 BLOCK_COL_SIZE=1024 num_warps=4",
           lambda: flaggems.weight_norm(out, norm, v, g, 0, 4, 1024, 4))
    report("weight_norm dim=-1 fp32 4096x4096", 2 * M * N * 4 + 2 * N * 4,
           "BLOCK_ROW_SIZE=512 BLOCK_COL_SIZE=32 num_warps=8",
           lambda: flaggems.weight_norm(out, norm, v, g, 1, 512, 32, 8))


# --- Mamba and the tutorials ----------------------------------------------------------------

def bench_selective_state_update():
    """Mamba-2 2.7B's decoding step for 64 sequences, as Mamba2.step calls it (see
    bench_ports.cpp): per-head dt, dt_bias and A broadcast along dim (and dstate)."""
    batch, nheads, dim, dstate, ngroups = 64, 80, 64, 128, 1
    state = uniform((batch, nheads, dim, dstate))
    x = uniform((batch, nheads, dim))
    dt = uniform((batch, nheads), -3, 1)[:, :, None].expand(batch, nheads, dim)
    dt_bias = uniform(nheads, -0.5, 0.5, torch.float32)[:, None].expand(nheads, dim)
    A = uniform(nheads, -2, -0.1, torch.float32)[:, None, None].expand(nheads, dim, dstate)
    B, C = uniform((batch, ngroups, dstate)), uniform((batch, ngroups, dstate))
    D = uniform(nheads, dtype=torch.float32)[:, None].expand(nheads, dim)
    out = torch.empty_like(x)
    block_m, warps = mamba.selective_state_update_config(dstate)
    nbytes = (2 * state.numel() * 2 + 2 * x.numel() * 2 + batch * nheads * 2 + 2 * B.numel() * 2
              + 3 * nheads * 4)
    report("selective_state_update bf16 b64 h80 p64 n128", nbytes,
           f"BLOCK_SIZE_M={block_m} BLOCK_SIZE_DSTATE={triton.next_power_of_2(dstate)} "
           f"num_warps={warps} tie_hdim dt_softplus",
           lambda: mamba.selective_state_update(state, x, dt, A, B, C, D, dt_bias, out),
           keeper(state))


def bench_ssd_bmm():
    """SSD's C B^T per chunk as Mamba-2's forward calls it (see bench_ports.cpp)."""
    batch, seqlen, chunk, groups, K = 16, 4096, 256, 1, 128
    C, B = uniform((batch, seqlen, groups, K)), uniform((batch, seqlen, groups, K))
    out = torch.empty(batch, seqlen // chunk, groups, chunk, chunk, device="cuda",
                      dtype=torch.float32)
    mamba.bmm_chunk_fwd(C, B, out, chunk)  # autotunes
    report("mamba ssd_bmm fwd bf16->fp32 b16 seq4096 chunk256 k128",
           2 * C.numel() * 2 + out.numel() * 4, "autotuned over the original's 9 configs",
           lambda: mamba.bmm_chunk_fwd(C, B, out, chunk))


def bench_layernorm_gated():
    for N, groups in ((5120, 1), (8192, 8)):
        x, z, w = uniform((ROWS, N), -2, 3), uniform((ROWS, N), -2, 2), uniform(N)
        y = torch.empty_like(x)
        rstd = torch.empty(groups * ROWS, device="cuda", dtype=torch.float32)
        block, warps = mamba.rms_norm_gated_config(N // groups, x.element_size())
        report(f"layernorm_gated rms bf16 {rows_x(N)} groups={groups}",
               3 * ROWS * N * 2 + N * 2 + groups * ROWS * 4, f"BLOCK_N={block} num_warps={warps}",
               lambda: mamba.rms_norm_gated(x, y, w, z, rstd, N // groups))


# --- DeepSeek-V3 -----------------------------------------------------------------------------

def bench_deepseek_quant():
    """V3's activations (4096 tokens x 7168) and an 18432 x 7168 weight (see bench_ports.cpp)."""
    H, F = 7168, 18432
    x = uniform((ROWS, H), -4, 4)
    y = torch.empty(ROWS, H, device="cuda", dtype=torch.float8_e4m3fn)
    s = torch.empty(ROWS * H // 128, device="cuda", dtype=torch.float32)
    n = ROWS * H
    report(f"act_quant bf16 {rows_x(H)}", n * 2 + n + n // 128 * 4, "BLOCK_SIZE=128 num_warps=4",
           lambda: deepseek.act_quant(x, y, s))
    w = uniform((F, H), -0.1, 0.1)
    q = torch.empty(F, H, device="cuda", dtype=torch.float8_e4m3fn)
    scales = torch.empty(F // 128, H // 128, device="cuda", dtype=torch.float32)
    back = torch.empty_like(w)
    n, squares = F * H, scales.numel()
    report("weight_quant bf16 18432x7168", n * 2 + n + squares * 4, "BLOCK_SIZE=128 num_warps=4",
           lambda: deepseek.weight_quant(w, q, scales))
    report("weight_dequant e4m3 18432x7168", n + squares * 4 + n * 2,
           "BLOCK_SIZE=128 num_warps=4", lambda: deepseek.weight_dequant(q, scales, back))


def bench_deepseek_gemm():
    """4096 tokens by a 7168 x 7168 e4m3 weight with V3's block scales, bf16 out; TFLOP/s."""
    M, N, K = ROWS, 7168, 7168
    a = uniform((M, K), -2, 2).to(torch.float8_e4m3fn)
    b = uniform((N, K), -2, 2).to(torch.float8_e4m3fn)
    a_s = uniform((M, K // 128), 0.5, 2, torch.float32)
    b_s = uniform((N // 128, K // 128), 0.5, 2, torch.float32)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    config = deepseek.fp8_gemm(a, a_s, b, b_s, c)  # autotunes
    ms = median_ms(lambda: deepseek.fp8_gemm(a, a_s, b, b_s, c))
    emit("ports fp8_gemm e4m3 block-scaled 4096x7168x7168", "triton", ms, "TFLOP/s",
         2 * M * N * K / (ms * 1e9), f"autotuned: {config}")


# --- vLLM ---------------------------------------------------------------------------------------

def bench_decode_attention():
    """32 sequences of one query token over a paged bf16 cache (see bench_ports.cpp): Llama 2
    7B's MHA, Llama 3 8B's GQA, DeepSeek-V3's MLA (TP 8); 8 splits."""
    batch, splits = 32, 8
    for kind, H, H_KV, Lk, Lv, page, ctx, scale in (
            ("mha", 32, 32, 128, 128, 16, 1024, 0.0884), ("gqa", 32, 8, 128, 128, 16, 4096, 0.0884),
            ("mla", 16, 1, 576, 512, 1, 4096, 0.0417)):
        slots = batch * ctx
        q = uniform((batch, H, Lk))
        k = uniform((slots, H_KV, Lk))
        v = k[..., :Lv] if kind == "mla" else uniform((slots, H_KV, Lv))
        pages = slots // page
        table = torch.arange(pages - 1, -1, -1, device="cuda", dtype=torch.int32).view(batch, -1)
        lens = torch.full((batch,), ctx, device="cuda", dtype=torch.int32)
        mid = torch.empty(batch, H, splits, Lv + 1, device="cuda", dtype=torch.float32)
        o = torch.empty(batch, H, Lv, device="cuda", dtype=torch.bfloat16)
        nbytes = (slots * H_KV * (Lk if kind == "mla" else Lk + Lv) * 2 + batch * H * Lk * 2
                  + pages * 4 + batch * H * Lv * 2)
        if kind == "mha":
            name = f"decode_attention mha bf16 b32 h32 d128 ctx{ctx} page16"
        elif kind == "gqa":
            name = f"decode_attention gqa bf16 b32 h32 kv8 d128 ctx{ctx} page16"
        else:
            name = f"decode_attention mla bf16 b32 h16 d576/512 ctx{ctx} page1"
        report(name, nbytes, "NUM_KV_SPLITS=8 num_warps=4 num_stages=2",
               lambda: vllm.decode_attention(q, k, v, o, table, lens, mid, splits, scale, page))


def bench_fp8_group_quant():
    """vLLM's per-token-group fp8 quantization (see bench_ports.cpp)."""
    H = 7168
    n, groups = ROWS * H, ROWS * H // 128
    x, gate_up = uniform((ROWS, H), -4, 4), uniform((ROWS, 2 * H), -4, 4)
    q = torch.empty(ROWS, H, device="cuda", dtype=torch.float8_e4m3fn)
    s = torch.empty(groups, device="cuda", dtype=torch.float32)
    report(f"fp8_group_quant e8m0 bf16 {rows_x(H)}", n * 2 + n + groups * 4,
           "BLOCK=128 num_warps=1", lambda: vllm.per_token_group_quant_fp8(x, q, s, 128, True))
    s_t = torch.empty(H // 128, ROWS, device="cuda", dtype=torch.float32)
    report(f"silu_mul_fp8_group_quant colmajor bf16 {rows_x(2 * H)}", n * 2 * 2 + n + groups * 4,
           "BLOCK_M=8 BLOCK_N=128 num_warps=4",
           lambda: vllm.silu_mul_group_quant_colmajor(gate_up, q, s_t, False))


def bench_merge_attn_states():
    """vLLM's merge of two partial attentions (see bench_ports.cpp)."""
    tokens, heads, D = 8192, 32, 128
    p_out, s_out = uniform((tokens, heads, D)), uniform((tokens, heads, D))
    p_lse = uniform((heads, tokens), -3, 3, torch.float32)
    s_lse = uniform((heads, tokens), -3, 3, torch.float32)
    out, out_lse = torch.empty_like(p_out), torch.empty_like(p_lse)
    n, lses = tokens * heads * D, tokens * heads
    report("merge_attn_states bf16 t8192 h32 d128", 3 * n * 2 + 3 * lses * 4,
           "PADDED_HEAD_SIZE=128 num_warps=4",
           lambda: vllm.merge_attn_states(out, p_out, p_lse, s_out, s_lse, out_lse))


# --- flash-linear-attention --------------------------------------------------------------------

def bench_qwen2vl_mrope():
    """Qwen2-VL 7B's M-RoPE over 4096 tokens, in place (see bench_ports.cpp)."""
    tokens, n_qh, n_kh, hd = ROWS, 28, 4, 128
    q, k = uniform((1, tokens, n_qh, hd)), uniform((1, tokens, n_kh, hd))
    cos, sin = uniform((3, 1, tokens, hd)), uniform((3, 1, tokens, hd))
    saved_q, saved_k = q.clone(), k.clone()

    def restore():
        q.copy_(saved_q)
        k.copy_(saved_k)

    report("qwen2vl_mrope fwd bf16 t4096 qh28 kh4 d128",
           2 * (q.numel() + k.numel()) * 2 + tokens * hd * 2, "BLOCK_SIZE=32 num_warps=4",
           lambda: liger.qwen2vl_mrope(q, k, cos, sin, (16, 24, 24)), restore)


def bench_fla_cumsum():
    """GLA's cumulative sums (see bench_ports.cpp): float in and out."""
    B, T, H, K = 8, 4096, 16, 128
    gk, g = uniform((B, T, H, K), -0.1, 0, torch.float32), uniform((B, T, H), -0.1, 0, torch.float32)
    gk_out, g_out = torch.empty_like(gk), torch.empty_like(g)
    report("fla chunk_local_cumsum vector fp32 b8 t4096 h16 k128", 2 * gk.numel() * 4,
           "BT=64 BS=32 num_warps=4", lambda: fla.local_cumsum_vector(gk, gk_out))
    report("fla chunk_global_cumsum scalar fp32 b8 t4096 h16", 2 * g.numel() * 4,
           "BT=256 num_warps=4", lambda: fla.global_cumsum_scalar(g, g_out))


def bench_fla_fused_recurrent():
    """GLA's fused recurrence (see bench_ports.cpp): bf16 inputs, float states and outputs."""
    B, T, H, K, V, NK, NV = 8, 1024, 16, 128, 128, 2, 2
    q, k = uniform((B, T, H, K)), uniform((B, T, H, K))
    v, gk = uniform((B, T, H, V)), uniform((B, T, H, K), -0.1, 0)
    do = uniform((B, T, H, V))
    f32 = dict(device="cuda", dtype=torch.float32)
    h0, dht = uniform((B, H, K, V), dtype=torch.float32), uniform((B, H, K, V), dtype=torch.float32)
    ht, dh0 = torch.empty(B, H, K, V, **f32), torch.empty(B, H, K, V, **f32)
    o = torch.empty(NK, B, T, H, V, **f32)
    dq, dk = torch.empty(NV, B, T, H, K, **f32), torch.empty(NV, B, T, H, K, **f32)
    dv, dgk = torch.empty(NK, B, T, H, V, **f32), torch.empty(NV, B, T, H, K, **f32)
    tk, states, scale = B * T * H, B * H * K * V, 0.0884
    report("fla fused_recurrent gla fwd bf16 b8 t1024 h16 k128 v128",
           tk * (3 * K + V) * 2 + NK * tk * V * 4 + 2 * states * 4, "BK=64 BV=64 num_warps=4",
           lambda: fla.gla_fwd(q, k, v, gk, o, h0, ht, scale))
    report("fla fused_recurrent gla bwd bf16 b8 t1024 h16 k128 v128",
           tk * (3 * K + 2 * V) * 2 + 2 * states * 4 + (3 * NV * tk * K + NK * tk * V) * 4
           + states * 4, "BK=64 BV=64 num_warps=4",
           lambda: fla.gla_bwd(q, k, v, gk, h0, do, dq, dk, dv, dgk, dht, dh0, scale))


def bench_dropout():
    n = 1 << 26
    x = uniform(n, dtype=torch.float32)
    keep = torch.randint(0, 2, (n,), device="cuda", dtype=torch.int32)
    out = torch.empty_like(x)
    report("dropout fp32 2^26", 3 * n * 4, "BLOCK_SIZE=1024 num_warps=4 p=0.5",
           lambda: tutorials.dropout(x, keep, out, 0.5))


def bench_asin():
    n = 1 << 26
    x = uniform(n, dtype=torch.float32)
    y = torch.empty_like(x)
    report("asin fp32 2^26", 2 * n * 4, "BLOCK_SIZE=1024 num_warps=4", lambda: tutorials.asin(x, y))


def wanted(kernel):
    only = os.environ.get("BENCH_PORTS_ONLY", "")
    return not only or kernel in only.split(",")


def main():
    require_gpu()
    ok = check()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    benches = [("jsd", bench_jsd), ("tvd", bench_tvd), ("dyt", lambda: bench_dyt(sms)),
               ("sparsemax", bench_sparsemax),
               ("fused_add_rms_norm", lambda: bench_fused_add_rms_norm(sms)),
               ("qwen2vl_mrope", bench_qwen2vl_mrope),
               ("unsloth_rms_layernorm", bench_unsloth_rms_layernorm),
               ("unsloth_geglu", bench_unsloth_geglu),
               ("unsloth_cross_entropy", bench_unsloth_cross_entropy),
               ("softmax", bench_softmax), ("var_mean", bench_var_mean),
               ("vector_norm", bench_vector_norm), ("cumsum", lambda: bench_cumsum(sms)),
               ("layer_norm", bench_layer_norm), ("weight_norm", bench_weight_norm),
               ("selective_state_update", bench_selective_state_update),
               ("layernorm_gated", bench_layernorm_gated), ("ssd_bmm", bench_ssd_bmm),
               ("deepseek_quant", bench_deepseek_quant), ("deepseek_gemm", bench_deepseek_gemm),
               ("decode_attention", bench_decode_attention),
               ("merge_attn_states", bench_merge_attn_states),
               ("fp8_group_quant", bench_fp8_group_quant),
               ("fla_cumsum", bench_fla_cumsum),
               ("fla_fused_recurrent", bench_fla_fused_recurrent),
               ("dropout", bench_dropout),
               ("asin", bench_asin)]
    for kernel, bench in benches:
        if wanted(kernel):
            bench()
            torch.cuda.empty_cache()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
