#!/usr/bin/env python3
"""Triton and PyTorch baselines for bench_vector_add, as JSON lines in the same schema.

Rows: the copy ceiling (torch copy of 2 GiB, bytes read + written), Triton's first-call
compile time (fresh TRITON_CACHE_DIR), launch overhead of a tiny add (Triton, torch), and
vector add bandwidth at n = 2^24 and 2^28 for fp32 and fp16 (Triton, torch.add).
"""
import json
import os
import sys
import tempfile
import time

# Must be set before Triton compiles anything, so the first call really compiles.
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton_bench_cache_")

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

LAUNCHES = 20000
TINY_N = 1024


def emit(name, provider, ms, unit, value, note=""):
    row = dict(name=name, provider=provider, ms=ms, unit=unit, value=value, note=note)
    print(json.dumps(row), flush=True)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    # One BLOCK_SIZE-element tile per program, masked at the ragged end.
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    a = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a + b, mask=mask)


def triton_add(x, y, out):
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)


def bench_compile():
    x, y, out = (torch.rand(1 << 24, device="cuda") for _ in range(3))
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    triton_add(x, y, out)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - t0) * 1e3
    emit("compile vector add (first call)", "triton", ms, "ms", ms, "fresh TRITON_CACHE_DIR")


def bench_copy_ceiling():
    n = (2 << 30) // 4
    src = torch.empty(n, dtype=torch.float32, device="cuda").fill_(1.0)
    dst = torch.empty_like(src)
    ms = triton.testing.do_bench(lambda: dst.copy_(src), warmup=25, rep=100,
                                 return_mode="median")
    gbs = 2 * src.numel() * src.element_size() / (ms * 1e6)
    emit("copy 2 GiB (ceiling)", "torch", ms, "GB/s", gbs, "bytes read + written")
    del src, dst


def per_launch_us(fn):
    for _ in range(1000):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(LAUNCHES):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e6 / LAUNCHES


def bench_launch_overhead():
    x, y, out = (torch.rand(TINY_N, device="cuda") for _ in range(3))
    note = f"{LAUNCHES} back-to-back launches, n={TINY_N}"
    for provider, fn in (("triton", lambda: triton_add(x, y, out)),
                         ("torch", lambda: torch.add(x, y, out=out))):
        us = per_launch_us(fn)
        emit("launch overhead (tiny add)", provider, us / 1e3, "us/launch", us, note)


def bench_bandwidth():
    for log2n in (24, 28):
        for dtype, label in ((torch.float32, "fp32"), (torch.float16, "fp16")):
            n = 1 << log2n
            x, y = (torch.rand(n, device="cuda").to(dtype) for _ in range(2))
            out = torch.empty_like(x)
            triton_add(x, y, out)
            if not torch.equal(out, x + y):
                print(f"triton result mismatch at n=2^{log2n} {label}", file=sys.stderr)
            nbytes = 3 * n * x.element_size()
            for provider, fn in (("triton", lambda: triton_add(x, y, out)),
                                 ("torch", lambda: torch.add(x, y, out=out))):
                ms = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")
                emit(f"vector add n=2^{log2n} {label}", provider, ms, "GB/s",
                     nbytes / (ms * 1e6), "BLOCK_SIZE=1024 num_warps=4" if provider == "triton"
                     else "")
            del x, y, out
            torch.cuda.empty_cache()


def main():
    if not torch.cuda.is_available():
        print("SKIPPED: no GPU (torch.cuda.is_available() is false)", file=sys.stderr)
        return 77
    torch.cuda.init()
    bench_compile()
    bench_copy_ceiling()
    bench_launch_overhead()
    bench_bandwidth()
    return 0


if __name__ == "__main__":
    sys.exit(main())
