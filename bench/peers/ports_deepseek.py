"""DeepSeek-V3's fp8 kernels that bench_ports.cpp and bench_spellings.cpp time, re-implemented
in Triton for bench/peers/ports.py and spellings.py from the originals
(github.com/deepseek-ai/DeepSeek-V3, inference/kernel.py, MIT licence), with their
algorithms, blockings and dtypes, and their host code's choices (128-wide blocks, Triton's
default 4 warps for the quantizers). The GEMM autotunes over six of the original's 36 configs,
the six tilec's port lists (tests/corpus/kernels/deepseek_fp8_gemm.cpp), so that both sides
choose from the same set and Triton's tuning stays short."""
import torch
import triton
import triton.language as tl


# act_quant_kernel: one float scale per BLOCK_SIZE run, max|x| / 448, values stored as x / s.
@triton.jit
def act_quant_kernel(x_ptr, y_ptr, s_ptr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offs).to(tl.float32)
    s = tl.max(tl.abs(x)) / 448.0
    tl.store(y_ptr + offs, (x / s).to(y_ptr.dtype.element_ty))
    tl.store(s_ptr + pid, s)


# weight_dequant_kernel: one scale per BLOCK_SIZE x BLOCK_SIZE square.
@triton.jit
def weight_dequant_kernel(x_ptr, s_ptr, y_ptr, M, N, BLOCK_SIZE: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    n = tl.cdiv(N, BLOCK_SIZE)
    offs_m = pid_m * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offs_n = pid_n * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offs = offs_m[:, None] * N + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    s = tl.load(s_ptr + pid_m * n + pid_n)
    tl.store(y_ptr + offs, x * s, mask=mask)


# weight_quant_kernel: the scale of a square from the max of the whole [B, B] tile.
@triton.jit
def weight_quant_kernel(x_ptr, y_ptr, s_ptr, M, N, BLOCK_SIZE: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    n = tl.cdiv(N, BLOCK_SIZE)
    offs_m = pid_m * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offs_n = pid_n * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offs = offs_m[:, None] * N + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    s = tl.max(tl.abs(x)) / 448.0
    tl.store(y_ptr + offs, (x / s).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(s_ptr + pid_m * n + pid_n, s)


GEMM_CONFIGS = [
    triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": 128},
                  num_stages=stages, num_warps=8)
    for bm, bn, stages in ((16, 64, 4), (32, 64, 4), (64, 64, 4), (64, 128, 3), (64, 128, 5),
                           (32, 128, 4))
]


# fp8_gemm_kernel: C = A @ B^T with B [N, K]; A's scales per row and 128 columns, B's per
# 128 x 128 square; each K step's product scaled before it is added.
@triton.jit
def _fp8_gemm_body(a_ptr, b_ptr, c_ptr, a_s_ptr, b_s_ptr, M, N: tl.constexpr, K: tl.constexpr,
                   BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                   BLOCK_SIZE_K: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    k = tl.cdiv(K, BLOCK_SIZE_K)
    offs_m = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_n = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_n[None, :] * K + offs_k[:, None]
    a_s_ptrs = a_s_ptr + offs_m * k
    b_s_ptrs = b_s_ptr + (offs_n // BLOCK_SIZE_K) * k
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(k):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - i * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - i * BLOCK_SIZE_K, other=0.0)
        a_s = tl.load(a_s_ptrs)
        b_s = tl.load(b_s_ptrs)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += BLOCK_SIZE_K
        a_s_ptrs += 1
        b_s_ptrs += 1
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptr + offs_cm[:, None] * N + offs_cn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=mask)


fp8_gemm_kernel = triton.autotune(configs=GEMM_CONFIGS, key=["N", "K"])(_fp8_gemm_body)


def act_quant(x, y, s, block=128):
    act_quant_kernel[(triton.cdiv(x.numel(), block),)](x, y, s, BLOCK_SIZE=block)


def weight_dequant(x, s, y, block=128):
    M, N = x.shape
    weight_dequant_kernel[(triton.cdiv(M, block), triton.cdiv(N, block))](x, s, y, M, N,
                                                                           BLOCK_SIZE=block)


def weight_quant(x, y, s, block=128):
    M, N = x.shape
    weight_quant_kernel[(triton.cdiv(M, block), triton.cdiv(N, block))](x, y, s, M, N,
                                                                        BLOCK_SIZE=block)


def fp8_gemm(a, a_s, b, b_s, c):
    K = a.size(-1)
    M = a.numel() // K
    N = b.size(0)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_SIZE_M"]), triton.cdiv(N, meta["BLOCK_SIZE_N"]))
    fp8_gemm_kernel[grid](a, b, c, a_s, b_s, M, N, K)
    return fp8_gemm_kernel.best_config


def reference_gemm(a, a_s, b, b_s):
    """C in float64 from the dequantized operands (A's scales per 128 columns, B's per square)."""
    K = a.size(-1)
    a64 = a.to(torch.float64) * a_s.to(torch.float64).repeat_interleave(128, 1)[:, :K]
    bs = b_s.to(torch.float64).repeat_interleave(128, 0).repeat_interleave(128, 1)
    b64 = b.to(torch.float64) * bs[:b.size(0), :K]
    return a64 @ b64.t()
