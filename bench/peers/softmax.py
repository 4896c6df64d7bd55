#!/usr/bin/env python3
"""Triton and PyTorch row softmax for bench_softmax's shapes (4096 x {1024, 4096, 16384}, fp32),
as JSON lines. Bytes: each element read once and written once (2 * M * N * 4)."""
import sys

import torch
import triton
import triton.language as tl

from common import emit, median_ms, require_gpu

ROWS = 4096


@triton.jit
def softmax_rows(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                 BLOCK: tl.constexpr, STAGES: tl.constexpr):
    # A fixed grid of programs steps through the rows; each row is one BLOCK-wide tile.
    first = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    for row in tl.range(first, n_rows, step, num_stages=STAGES):
        x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=mask)


def triton_softmax(x, out, warps, programs):
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    softmax_rows[(programs,)](out, x, x.stride(0), out.stride(0), rows, cols,
                              BLOCK=block, STAGES=2 if block <= 4096 else 1, num_warps=warps)


def main():
    require_gpu()
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    for cols in (1024, 4096, 16384):
        x = torch.randn(ROWS, cols, device="cuda")
        out = torch.empty_like(x)
        nbytes = 2 * x.numel() * x.element_size()
        name = f"softmax {ROWS}x{cols} fp32"
        block = triton.next_power_of_2(cols)
        ref = torch.softmax(x, dim=1)
        for warps in (1, 2, 4, 8, 16):
            if block < 32 * warps or block > 64 * 32 * warps:
                continue  # idle threads, or over 64 values per thread (as bench_softmax)
            # One program per row, and a persistent grid of a few programs per SM.
            for programs in (ROWS, 2 * sms, 4 * sms):
                triton_softmax(x, out, warps, programs)
                if not torch.allclose(out, ref, rtol=1e-5, atol=1e-7):
                    print(f"triton softmax mismatch at {name}", file=sys.stderr)
                ms = median_ms(lambda: triton_softmax(x, out, warps, programs))
                kind = "one row per program" if programs == ROWS else f"{programs} programs"
                emit(name, "triton", ms, "GB/s", nbytes / (ms * 1e6),
                     f"{kind}, BLOCK={block} num_warps={warps}")
        ms = median_ms(lambda: torch.softmax(x, dim=1))
        emit(name, "torch", ms, "GB/s", nbytes / (ms * 1e6), "torch.softmax(x, dim=1)")
        del x, out, ref
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
