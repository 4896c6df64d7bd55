#!/usr/bin/env python3
"""Triton and PyTorch (cuBLAS) matmul for bench_matmul's shapes, fp16 and bf16, as JSON lines.

Shapes M x N x K: 4096^3, 8192^3, 8192 x 8192 x 1024, 16384 x 1024 x 16384 and 1024^3; inputs uniform in [-1, 1), as
bench_matmul.cpp. TFLOP/s = 2 * M * N * K / time. Rows:
- triton: the matmul of Triton's tutorial 03, autotuned over the tutorial's CUDA configs
  (the note names the one chosen);
- triton (tilec's config): the same kernel at BLOCK 128x128x32, GROUP_M 8, num_warps 4,
  num_stages 4, what tilec runs (report.py lists it under "Other rows");
- torch: torch.matmul (cuBLAS).
"""
import sys

import torch
import triton
import triton.language as tl

from common import emit, median_ms, require_gpu

SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 1024), (16384, 1024, 16384),
          (1024, 1024, 1024))
DTYPES = ((torch.float16, "fp16"), (torch.bfloat16, "bf16"))


def cfg(bm, bn, bk, stages, warps):
    return triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8},
                         num_stages=stages, num_warps=warps)


# Tutorial 03's list for CUDA: (BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps), GROUP_M 8.
TUTORIAL_CONFIGS = [cfg(*c) for c in (
    (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
    (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2),
    # the tutorial's configs for fp8 inputs, part of the same list
    (128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (256, 64, 128, 4, 4), (64, 256, 128, 4, 4),
    (128, 128, 128, 4, 4), (128, 64, 64, 4, 4), (64, 128, 64, 4, 4), (128, 32, 64, 4, 4),
)]
TILEC_CONFIG = cfg(128, 128, 32, 4, 4)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    # The algorithm of examples/matmul/matmul.cpp: grouped program order, rows of A and
    # columns of B wrapping at the edges, the K tail masked, float accumulation.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    first_pid_m = (pid // num_pid_in_group) * GROUP_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk

    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=c_mask)


matmul_autotuned = triton.autotune(configs=TUTORIAL_CONFIGS, key=["M", "N", "K"])(matmul_kernel)


def launch(kernel, a, b, c, **config):
    M, K = a.shape
    N = b.shape[1]
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
    kernel[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), **config)


def config_kwargs(config):
    return dict(config.kwargs, num_warps=config.num_warps, num_stages=config.num_stages)


def config_note(config):
    k = config.kwargs
    return (f"BLOCK {k['BLOCK_M']}x{k['BLOCK_N']}x{k['BLOCK_K']} GROUP_M={k['GROUP_M']} "
            f"num_warps={config.num_warps} num_stages={config.num_stages}")


def main():
    require_gpu()
    for M, N, K in SHAPES:
        for dtype, label in DTYPES:
            a = (torch.rand(M, K, device="cuda") * 2 - 1).to(dtype)
            b = (torch.rand(K, N, device="cuda") * 2 - 1).to(dtype)
            c = torch.empty(M, N, device="cuda", dtype=dtype)
            name = f"matmul {M}x{N}x{K} {label}"
            flops = 2.0 * M * N * K
            ref = torch.matmul(a, b)
            tol = 1e-2 if dtype == torch.float16 else 2e-2
            runs = (("triton", matmul_autotuned, None),
                    ("triton (tilec's config)", matmul_kernel, TILEC_CONFIG))
            for provider, kernel, config in runs:
                kwargs = config_kwargs(config) if config else {}
                launch(kernel, a, b, c, **kwargs)  # the autotuned kernel tunes on its first call
                if not torch.allclose(c.float(), ref.float(), rtol=tol, atol=tol):
                    print(f"{provider} matmul mismatch at {name}", file=sys.stderr)
                ms = median_ms(lambda: launch(kernel, a, b, c, **kwargs))
                note = config_note(config or matmul_autotuned.best_config)
                emit(name, provider, ms, "TFLOP/s", flops / (ms * 1e9), note)
            ms = median_ms(lambda: torch.matmul(a, b, out=c))
            emit(name, "torch", ms, "TFLOP/s", flops / (ms * 1e9), "torch.matmul (cuBLAS)")
            del a, b, c, ref
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
