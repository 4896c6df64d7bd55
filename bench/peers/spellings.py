#!/usr/bin/env python3
"""Triton and PyTorch for bench_spellings' problems, as JSON lines (bench_util.h's schema).

Rows, named as bench_spellings.cpp names them so that report.py pairs them:
- "matmul_offsets {fp16,bf16} M x N x K" (4096^3, 8192^3, 8192 x 8192 x 1024, 16384 x 1024 x
  16384, 1024^3; int8 at 4096^3 and 8192^3): C = A @ B, A [M, K] and B [K, N]
  row-major. torch: torch.matmul (cuBLAS). triton: the kernel below, which spells the loop as
  bench/kernels/matmul_spellings.cpp does (K offsets recomputed from the loop index, pointers
  rebuilt every iteration), autotuned over the same configs.
  Provider "triton (block pointers)" (with BENCH_ONLY including block_ptr, or unset): the
  same product in Triton's block-pointer spelling (08-experimental-block-pointer.py).
- "linear_nt {fp16,bf16} M x N x K": y = x @ W^T, W [N, K] (an nn.Linear weight). torch:
  torch.nn.functional.linear. triton: the same kernel reading W through its strides, as
  W's tile [BLOCK_K, BLOCK_N] at w + offs_n[None, :] * stride_wn + offs_k[:, None].
- "int8_gemm int8 S x S x S": int8 A [M, K] x int8 B [K, N] -> int32, both row-major.
  torch: torch._int_mm (cuBLASLt); triton: the same kernel with an int32 accumulator.
- "fp8_linear e4m3 S x S x S", S = 4096, 8192: (x @ W^T) * scale_x * scale_w, x [M, K] and W
  [N, K] in float8_e4m3fn, per-tensor float scales, bfloat16 out. torch: torch._scaled_mm
  (cuBLASLt; W^T column-major without a copy, as it requires), with use_fast_accum=True (the
  tensor cores' fp8 accumulator, as tilec's tl::dot) and False ("torch (float accumulation)").
  No Triton row.
- "attention_fwd fp16 Z4 H32 N{1024,4096} D{64,128} {causal,non-causal}": softmax(Q K^T /
  sqrt(D)) V, [Z, H, N, D] contiguous. torch: scaled_dot_product_attention (its fastest
  backend, flash attention on an H200); no Triton row (tutorial 06 is long; bench_spellings'
  kernel is that tutorial's forward pass).
TFLOP/s: 2 * M * N * K for the products (int8 operations counted the same); 4 * Z * H * N^2 *
D for attention, half that when causal. Inputs uniform in [-1, 1) (int8: [-128, 127]).
Triton results are compared with torch's before timing; a mismatch is reported on stderr and
the script exits 1 after the other rows.
"""
import os
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

from common import emit, median_ms, require_gpu

SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 1024), (16384, 1024, 16384),
          (1024, 1024, 1024))
INT8_SHAPES = ((4096, 4096, 4096), (8192, 8192, 8192))
DTYPES = ((torch.float16, "fp16"), (torch.bfloat16, "bf16"))
ATTENTION_Z, ATTENTION_H = 4, 32
ATTENTION_N = (1024, 4096)
ATTENTION_D = (64, 128)


def cfg(bm, bn, bk, warps, stages):
    return triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8},
                         num_warps=warps, num_stages=stages)


# The TILEC_AUTOTUNE configs of bench/kernels/matmul_spellings.cpp:
# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages), GROUP_M 8.
CONFIGS_16BIT = [cfg(*c) for c in (
    (128, 128, 32, 4, 4), (128, 128, 64, 4, 3), (128, 256, 64, 8, 3),
    (256, 128, 64, 8, 3), (128, 64, 64, 4, 4), (64, 128, 32, 4, 4),
)]
CONFIGS_INT8 = [cfg(*c) for c in (
    (128, 128, 64, 4, 4), (128, 128, 128, 4, 3), (128, 256, 128, 8, 3),
    (256, 128, 128, 8, 3), (128, 64, 128, 4, 4), (64, 128, 64, 4, 4),
)]


@triton.jit
def matmul_offsets_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                          stride_bn, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                          INT_ACC: tl.constexpr):
    # Grouped program order (tutorial 03), rows of A and columns of B wrapping at the edges.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    first_pid_m = (pid // num_pid_in_group) * GROUP_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    if INT_ACC:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    else:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        # The offsets of this step, recomputed from k; the pointers built from them.
        offs_k = k * BLOCK_K + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak,
                    mask=offs_k[None, :] < K, other=0)
        b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                    mask=offs_k[:, None] < K, other=0)
        if INT_ACC:
            acc = tl.dot(a, b, acc, out_dtype=tl.int32)
        else:
            acc = tl.dot(a, b, acc)

    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=c_mask)


@triton.jit
def matmul_block_ptr_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                            stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                            BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    # Triton's block-pointer tutorial (08-experimental-block-pointer.py, Triton 2.1), in the
    # grouped program order: every operand a block pointer, moved along K with tl.advance.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    first_pid_m = (pid // num_pid_in_group) * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (pid_m * BLOCK_M, 0),
                             (BLOCK_M, BLOCK_K), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn), (0, pid_n * BLOCK_N),
                             (BLOCK_K, BLOCK_N), (1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_bp, boundary_check=(0, 1))
        b = tl.load(b_bp, boundary_check=(0, 1))
        acc = tl.dot(a, b, acc)
        a_bp = tl.advance(a_bp, (0, BLOCK_K))
        b_bp = tl.advance(b_bp, (BLOCK_K, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn), (pid_m * BLOCK_M,
                             pid_n * BLOCK_N), (BLOCK_M, BLOCK_N), (1, 0))
    tl.store(c_bp, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


MATMUL_BLOCK_PTR = triton.autotune(configs=CONFIGS_16BIT, key=["M", "N", "K"])(
    matmul_block_ptr_kernel)


def launch_block_ptr(a, b, c, M, N, K):
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
    MATMUL_BLOCK_PTR[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                           c.stride(0), c.stride(1))


# One autotuner per problem: each keeps its own choice per (M, N, K) and dtypes, so that
# linear_nt does not reuse matmul_offsets' choice (the key has no strides).
TUNED = {
    "matmul_offsets": triton.autotune(configs=CONFIGS_16BIT, key=["M", "N", "K"])(
        matmul_offsets_kernel),
    "linear_nt": triton.autotune(configs=CONFIGS_16BIT, key=["M", "N", "K"])(
        matmul_offsets_kernel),
    "int8_gemm": triton.autotune(configs=CONFIGS_INT8, key=["M", "N", "K"])(
        matmul_offsets_kernel),
}


def launch(kernel, a, b_strides, b, c, M, N, K):
    """C [M, N] = A [M, K] @ B, B read at b + k * b_strides[0] + n * b_strides[1]."""
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
    kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b_strides[0], b_strides[1],
                 c.stride(0), INT_ACC=(c.dtype == torch.int32))


def config_note(config):
    k = config.kwargs
    return (f"autotuned: BLOCK {k['BLOCK_M']}x{k['BLOCK_N']}x{k['BLOCK_K']} "
            f"GROUP_M={k['GROUP_M']} num_warps={config.num_warps} "
            f"num_stages={config.num_stages}")


def close(got, want, dtype):
    if dtype == torch.int32:
        return torch.equal(got, want)
    tol = 1e-2 if dtype == torch.float16 else 2e-2
    return torch.allclose(got.float(), want.float(), rtol=tol, atol=tol)


def wanted(family):
    """Whether the family (matmul, int8, fp8, attention) is to run: all, or those in BENCH_ONLY."""
    only = os.environ.get("BENCH_ONLY", "")
    return not only or family in only.split(",")


def bench_products(failures):
    for M, N, K in SHAPES:
        flops = 2.0 * M * N * K
        shape = f"{M}x{N}x{K}"
        for dtype, label in (DTYPES if wanted("matmul") else ()):
            a = (torch.rand(M, K, device="cuda") * 2 - 1).to(dtype)
            b = (torch.rand(K, N, device="cuda") * 2 - 1).to(dtype)  # B [K, N]
            w = (torch.rand(N, K, device="cuda") * 2 - 1).to(dtype)  # W [N, K]
            c = torch.empty(M, N, device="cuda", dtype=dtype)
            problems = (
                ("matmul_offsets", b, (b.stride(0), b.stride(1)),
                 lambda: torch.matmul(a, b, out=c), "torch.matmul (cuBLAS)"),
                # W^T without a copy: element (k, n) of W^T is w[n, k].
                ("linear_nt", w, (w.stride(1), w.stride(0)),
                 lambda: F.linear(a, w), "torch.nn.functional.linear (cuBLAS)"),
            )
            for kind, operand, strides, torch_fn, torch_note in problems:
                name = f"{kind} {label} {shape}"
                ref = torch_fn()
                ref = (c if ref is None else ref).clone()
                kernel = TUNED[kind]
                launch(kernel, a, strides, operand, c, M, N, K)  # tunes on its first call
                c.fill_(float("nan"))
                launch(kernel, a, strides, operand, c, M, N, K)
                if not close(c, ref, dtype):
                    print(f"spellings.py: triton {name} mismatch against torch", file=sys.stderr)
                    failures.append(name)
                else:
                    ms = median_ms(lambda: launch(kernel, a, strides, operand, c, M, N, K))
                    emit(name, "triton", ms, "TFLOP/s", flops / (ms * 1e9),
                         config_note(kernel.best_config))
                ms = median_ms(torch_fn)
                emit(name, "torch", ms, "TFLOP/s", flops / (ms * 1e9), torch_note)
                if kind == "matmul_offsets" and wanted("block_ptr"):
                    try:
                        launch_block_ptr(a, b, c, M, N, K)  # tunes
                        c.fill_(float("nan"))
                        launch_block_ptr(a, b, c, M, N, K)
                        if not close(c, ref, dtype):
                            print(f"spellings.py: triton (block pointers) {name} mismatch",
                                  file=sys.stderr)
                            failures.append(name + " (block pointers)")
                        else:
                            ms = median_ms(lambda: launch_block_ptr(a, b, c, M, N, K))
                            emit(name, "triton (block pointers)", ms, "TFLOP/s",
                                 flops / (ms * 1e9), config_note(MATMUL_BLOCK_PTR.best_config))
                    except Exception as e:  # a Triton without block pointers: other rows run
                        print(f"spellings.py: triton (block pointers) {name}: "
                              f"{type(e).__name__}: {e}", file=sys.stderr)
                del ref
            del a, b, w, c
            torch.cuda.empty_cache()

        if not wanted("int8") or (M, N, K) not in INT8_SHAPES:
            continue
        name = f"int8_gemm int8 {shape}"
        a = torch.randint(-128, 128, (M, K), device="cuda", dtype=torch.int8)
        b = torch.randint(-128, 128, (K, N), device="cuda", dtype=torch.int8)
        c = torch.empty(M, N, device="cuda", dtype=torch.int32)
        ref, best = None, None
        # B as the problem stores it (row-major) and column-major (the layout cuBLASLt's int8
        # kernels are built for): the faster one is the row, its layout in the note.
        for layout, operand in (("row-major", b), ("column-major", b.t().contiguous().t())):
            try:
                ref = torch._int_mm(a, operand)
                ms = median_ms(lambda: torch._int_mm(a, operand))
                if best is None or ms < best[0]:
                    best = (ms, layout)
            except RuntimeError as e:  # an older torch, or a layout cuBLASLt refuses
                print(f"spellings.py: torch._int_mm {name}, B {layout}: {e}", file=sys.stderr)
        if best is not None:
            emit(name, "torch", best[0], "TFLOP/s", flops / (best[0] * 1e9),
                 f"torch._int_mm (cuBLASLt), B {best[1]} (int8 operations per second)")
        kernel = TUNED["int8_gemm"]
        try:
            launch(kernel, a, (b.stride(0), b.stride(1)), b, c, M, N, K)
            c.fill_(0x7f7f7f7f)
            launch(kernel, a, (b.stride(0), b.stride(1)), b, c, M, N, K)
            if ref is not None and not close(c, ref, torch.int32):
                print(f"spellings.py: triton {name} mismatch against torch", file=sys.stderr)
                failures.append(name)
            else:
                ms = median_ms(
                    lambda: launch(kernel, a, (b.stride(0), b.stride(1)), b, c, M, N, K))
                emit(name, "triton", ms, "TFLOP/s", flops / (ms * 1e9),
                     config_note(kernel.best_config) + " (int8 operations per second)")
        except Exception as e:  # a Triton that cannot compile it: the other rows still run
            print(f"spellings.py: triton {name}: {type(e).__name__}: {e}", file=sys.stderr)
            failures.append(name)
        del a, b, c, ref
        torch.cuda.empty_cache()


def bench_fp8():
    for M, N, K in INT8_SHAPES:
        name = f"fp8_linear e4m3 {M}x{N}x{K}"
        flops = 2.0 * M * N * K
        x = (torch.rand(M, K, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
        w = (torch.rand(N, K, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
        scale_x = torch.tensor(0.5, device="cuda")
        scale_w = torch.tensor(0.25, device="cuda")
        # use_fast_accum=True sums in the tensor cores' fp8 accumulator, as tilec's tl::dot
        # does (the "torch" row); False adds each block's sums into float (another row).
        for fast, provider in ((True, "torch"), (False, "torch (float accumulation)")):
            fn = lambda: torch._scaled_mm(x, w.t(), scale_a=scale_x, scale_b=scale_w,
                                          out_dtype=torch.bfloat16, use_fast_accum=fast)
            try:
                fn()
                ms = median_ms(fn)
                emit(name, provider, ms, "TFLOP/s", flops / (ms * 1e9),
                     f"torch._scaled_mm (cuBLASLt), per-tensor scales, bf16 out, "
                     f"use_fast_accum={fast} (fp8 operations per second)")
            except RuntimeError as e:  # a torch without fp8 matmuls on this GPU
                print(f"spellings.py: torch._scaled_mm {name}: {e}", file=sys.stderr)
        del x, w
        torch.cuda.empty_cache()


def bench_attention():
    Z, H = ATTENTION_Z, ATTENTION_H
    for D in ATTENTION_D:
        for causal in (False, True):
            for N in ATTENTION_N:
                shape = (Z, H, N, D)
                q = (torch.rand(shape, device="cuda") * 2 - 1).half()
                k = (torch.rand(shape, device="cuda") * 2 - 1).half()
                v = (torch.rand(shape, device="cuda") * 2 - 1).half()
                name = (f"attention_fwd fp16 Z{Z} H{H} N{N} D{D} "
                        + ("causal" if causal else "non-causal"))
                flops = 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
                fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                ms = median_ms(fn)
                emit(name, "torch", ms, "TFLOP/s", flops / (ms * 1e9),
                     "torch.nn.functional.scaled_dot_product_attention (scale 1/sqrt(D))")
                del q, k, v
                torch.cuda.empty_cache()


def main():
    require_gpu()
    failures = []
    bench_products(failures)
    if wanted("fp8"):
        bench_fp8()
    if wanted("attention"):
        bench_attention()
    if failures:
        print(f"spellings.py: {len(failures)} mismatch(es): {', '.join(failures)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
