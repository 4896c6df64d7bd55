#!/usr/bin/env python3
"""Triton's tutorial 09 spelling of C = A @ B (every operand through a tensor descriptor), with
and without Triton's warp specialization (`tl.range(..., warp_specialize=True)`), as JSON lines
beside bench_spellings' matmul_descriptor rows.

Shapes S x S x S for S = 4096, 8192, 8192 x 8192 x 1024, 16384 x 1024 x 16384 and 1024^3, fp16 and bf16, inputs uniform in
[-1, 1). Rows are named as bench_spellings names them ("matmul_offsets fp16 4096x4096x4096");
providers "triton (tensor descriptors)" and "triton (tensor descriptors, warp-specialized)",
each autotuned over the configs below (the note names the one chosen). A mode Triton cannot
compile on this GPU is reported on stderr and left out.
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


CONFIGS = [cfg(128, 128, 64, 3, 4), cfg(128, 128, 64, 4, 4), cfg(128, 256, 64, 3, 8),
           cfg(128, 256, 64, 4, 8), cfg(256, 128, 64, 3, 8)]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K", "WARP_SPECIALIZE"])
@triton.jit
def matmul_descriptor_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                             WARP_SPECIALIZE: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=WARP_SPECIALIZE):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


def launch(a, b, c, ws):
    M, K = a.shape
    N = b.shape[1]
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
    matmul_descriptor_kernel[grid](a, b, c, M, N, K, WARP_SPECIALIZE=ws)


def main():
    require_gpu()
    # Descriptors made in the kernel need global scratch memory from the caller.
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                  device="cuda"))
    for M, N, K in SHAPES:
        for dtype, label in DTYPES:
            a = (torch.rand(M, K, device="cuda") * 2 - 1).to(dtype)
            b = (torch.rand(K, N, device="cuda") * 2 - 1).to(dtype)
            c = torch.empty(M, N, device="cuda", dtype=dtype)
            ref = torch.matmul(a, b)
            name = f"matmul_offsets {label} {M}x{N}x{K}"
            flops = 2.0 * M * N * K
            tol = 1e-2 if dtype == torch.float16 else 2e-2
            for ws, provider in ((False, "triton (tensor descriptors)"),
                                 (True, "triton (tensor descriptors, warp-specialized)")):
                try:
                    launch(a, b, c, ws)
                    torch.cuda.synchronize()
                except Exception as e:  # a mode this Triton cannot compile here
                    print(f"{provider} {name}: {type(e).__name__}: {e}", file=sys.stderr)
                    continue
                if not torch.allclose(c.float(), ref.float(), rtol=tol, atol=tol):
                    print(f"{provider} mismatch at {name}", file=sys.stderr)
                ms = median_ms(lambda: launch(a, b, c, ws))
                best = matmul_descriptor_kernel.best_config
                note = (f"BLOCK {best.kwargs['BLOCK_M']}x{best.kwargs['BLOCK_N']}x"
                        f"{best.kwargs['BLOCK_K']}, num_warps {best.num_warps}, "
                        f"num_stages {best.num_stages}")
                emit(name, provider, ms, "TFLOP/s", flops / (ms * 1e9), note)
            del a, b, c, ref
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
