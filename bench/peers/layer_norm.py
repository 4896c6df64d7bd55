#!/usr/bin/env python3
"""Triton and PyTorch layer norm, forward and backward, for bench_layer_norm's shapes
(4096 x {4096, 8192}, fp16), as JSON lines. Bytes as bench_layer_norm.cpp counts them:
forward 2 * M * N * 2 + w, b, mean, rstd; backward 3 * M * N * 2 + mean, rstd, w, dw, db.
The Triton backward accumulates dw/db partials per group of rows under a spin lock, then
reduces the groups in a second kernel, as Triton's tutorial does; torch's backward is timed
through autograd (y.backward(dy)), which also computes dw and db."""
import sys

import torch
import triton
import triton.language as tl

from common import emit, median_ms, require_gpu

ROWS = 4096
EPS = 1e-5


@triton.jit
def ln_fwd(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, n, eps,
           BLOCK: tl.constexpr):
    # One row per program; column blocks of BLOCK (one block when BLOCK >= n).
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        c = off + tl.arange(0, BLOCK)
        acc += tl.load(x_row + c, mask=c < n, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        c = off + tl.arange(0, BLOCK)
        v = tl.load(x_row + c, mask=c < n, other=0.0).to(tl.float32)
        d = tl.where(c < n, v - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, n, BLOCK):
        c = off + tl.arange(0, BLOCK)
        m = c < n
        v = tl.load(x_row + c, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=m).to(tl.float32)
        b = tl.load(b_ptr + c, mask=m).to(tl.float32)
        tl.store(y_row + c, ((v - mean) * rstd * w + b).to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def ln_bwd_dx(dx_ptr, dy_ptr, dw_part, db_part, locks, x_ptr, w_ptr, mean_ptr, rstd_ptr,
              stride, n, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    # dx of one row; its dy * xhat and dy are added to partial row (row % GROUPS) under that
    # row's spin lock. locks[GROUPS + g] says whether partial row g holds data yet.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = w * dy
    c1 = tl.sum(xhat * wdy, axis=0) / n
    c2 = tl.sum(wdy, axis=0) / n
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    g = row % GROUPS
    lock = locks + g
    filled = locks + GROUPS + g
    part = g * n + cols
    dw = dy * xhat
    db = dy
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    if tl.load(filled) == 0:
        tl.atomic_xchg(filled, 1)
    else:
        dw += tl.load(dw_part + part, mask=mask)
        db += tl.load(db_part + part, mask=mask)
    tl.store(dw_part + part, dw, mask=mask)
    tl.store(db_part + part, db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def ln_bwd_dwdb(dw_part, db_part, dw_ptr, db_ptr, groups, n,
                BLOCK_G: tl.constexpr, BLOCK_N: tl.constexpr):
    # Sums the partial rows over the groups for BLOCK_N columns.
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros([BLOCK_G, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([BLOCK_G, BLOCK_N], dtype=tl.float32)
    for g0 in range(0, groups, BLOCK_G):
        g = g0 + tl.arange(0, BLOCK_G)
        m = (g[:, None] < groups) & (cols[None, :] < n)
        offs = g[:, None] * n + cols[None, :]
        dw += tl.load(dw_part + offs, mask=m, other=0.0)
        db += tl.load(db_part + offs, mask=m, other=0.0)
    tl.store(dw_ptr + cols, tl.sum(dw, axis=0).to(dw_ptr.dtype.element_ty), mask=cols < n)
    tl.store(db_ptr + cols, tl.sum(db, axis=0).to(db_ptr.dtype.element_ty), mask=cols < n)


def fwd_warps(block):
    return min(max(block // 256, 1), 8)


def triton_forward(x, w, b, y, mean, rstd, warps):
    rows, n = x.shape
    block = min(65536 // x.element_size(), triton.next_power_of_2(n))
    ln_fwd[(rows,)](x, y, w, b, mean, rstd, x.stride(0), n, EPS, BLOCK=block, num_warps=warps)


def group_count(n):
    return 64 if n <= 8192 else 32


def triton_backward(dy, x, w, mean, rstd, dx, dw, db, scratch, warps):
    rows, n = x.shape
    groups = group_count(n)
    dw_part, db_part, locks = scratch
    locks.zero_()
    block = triton.next_power_of_2(n)
    ln_bwd_dx[(rows,)](dx, dy, dw_part, db_part, locks, x, w, mean, rstd, x.stride(0), n,
                       GROUPS=groups, BLOCK=block, num_warps=warps)
    ln_bwd_dwdb[(triton.cdiv(n, 128),)](dw_part, db_part, dw, db, groups, n,
                                        BLOCK_G=32, BLOCK_N=128)


def main():
    require_gpu()
    for n in (4096, 8192):
        torch.manual_seed(0)
        x = torch.randn(ROWS, n, device="cuda", dtype=torch.float16)
        w = torch.rand(n, device="cuda", dtype=torch.float16) + 0.5
        b = torch.randn(n, device="cuda", dtype=torch.float16)
        dy = torch.randn_like(x)
        y = torch.empty_like(x)
        mean = torch.empty(ROWS, device="cuda", dtype=torch.float32)
        rstd = torch.empty_like(mean)
        shape = f"{ROWS}x{n} fp16"
        fwd_bytes = 2 * x.numel() * 2 + 2 * n * 2 + 2 * ROWS * 4
        bwd_bytes = 3 * x.numel() * 2 + 2 * ROWS * 4 + 3 * n * 2

        # Forward.
        ref = torch.nn.functional.layer_norm(x, (n,), w, b, EPS)
        block = triton.next_power_of_2(n)
        for warps in sorted({fwd_warps(block), 4, 8, 16}):
            triton_forward(x, w, b, y, mean, rstd, warps)
            if not torch.allclose(y, ref, atol=1e-2, rtol=0):
                print(f"triton layer norm fwd mismatch at {shape}", file=sys.stderr)
            ms = median_ms(lambda: triton_forward(x, w, b, y, mean, rstd, warps))
            emit(f"layer norm fwd {shape}", "triton", ms, "GB/s", fwd_bytes / (ms * 1e6),
                 f"BLOCK={block} num_warps={warps}")
        ms = median_ms(lambda: torch.nn.functional.layer_norm(x, (n,), w, b, EPS))
        emit(f"layer norm fwd {shape}", "torch", ms, "GB/s", fwd_bytes / (ms * 1e6),
             "torch.nn.functional.layer_norm")

        # Backward, from the mean and rstd of the forward pass.
        xr, wr, br = (t.clone().requires_grad_(True) for t in (x, w, b))
        yr = torch.nn.functional.layer_norm(xr, (n,), wr, br, EPS)
        yr.backward(dy, retain_graph=True)
        dx, dw, db = torch.empty_like(x), torch.empty_like(w), torch.empty_like(b)
        groups = group_count(n)
        scratch = (torch.empty(groups, n, device="cuda", dtype=torch.float32),
                   torch.empty(groups, n, device="cuda", dtype=torch.float32),
                   torch.zeros(2 * groups, device="cuda", dtype=torch.int32))
        triton_forward(x, w, b, y, mean, rstd, fwd_warps(block))
        for warps in (8, 16):
            triton_backward(dy, x, w, mean, rstd, dx, dw, db, scratch, warps)
            if not (torch.allclose(dx, xr.grad, atol=2e-2, rtol=1e-2)
                    and torch.allclose(dw.float(), wr.grad.float(), atol=0.5, rtol=1e-2)
                    and torch.allclose(db.float(), br.grad.float(), atol=0.5, rtol=1e-2)):
                print(f"triton layer norm bwd mismatch at {shape}", file=sys.stderr)
            ms = median_ms(lambda: triton_backward(dy, x, w, mean, rstd, dx, dw, db, scratch,
                                                   warps))
            emit(f"layer norm bwd {shape}", "triton", ms, "GB/s", bwd_bytes / (ms * 1e6),
                 f"BLOCK={block} num_warps={warps} groups={groups} (locks)")
        ms = median_ms(lambda: yr.backward(dy, retain_graph=True), grad_to_none=[xr, wr, br])
        emit(f"layer norm bwd {shape}", "torch", ms, "GB/s", bwd_bytes / (ms * 1e6),
             "autograd backward of F.layer_norm (dx, dw, db)")
        del x, dy, y, xr, yr, dx, scratch
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
