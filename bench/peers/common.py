"""Shared by the peer benchmarks: JSON-lines output in bench_util.h's schema, and timing."""
import json
import sys

import torch
import triton


def emit(name, provider, ms, unit, value, note=""):
    row = dict(name=name, provider=provider, ms=ms, unit=unit, value=value, note=note)
    print(json.dumps(row), flush=True)


def median_ms(fn, grad_to_none=None):
    """Triton's do_bench (L2 flushed before each repetition), median."""
    return triton.testing.do_bench(fn, warmup=25, rep=100, grad_to_none=grad_to_none,
                                   return_mode="median")


def median_ms_restored(fn, restore, warmup=10, reps=50):
    """Median of per-launch event timings, each launch after restore() and a 256 MB write that
    leaves no input in L2, neither timed: for kernels that write over their own inputs
    (bench_corpus.cpp's Restore does the same on the tilec side)."""
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    for _ in range(warmup):
        restore()
        fn()
    times = []
    for _ in range(reps):
        restore()
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        times.append((start, end))
    torch.cuda.synchronize()
    ms = sorted(s.elapsed_time(e) for s, e in times)
    return ms[len(ms) // 2]


def report_gbs(prefix, name, nbytes, note, fn, restore=None, provider="triton"):
    """Times fn (after restore() each launch, when given) and emits "<prefix> <name>" in GB/s."""
    ms = median_ms_restored(fn, restore) if restore else median_ms(fn)
    emit(prefix + " " + name, provider, ms, "GB/s", nbytes / (ms * 1e6), note)


def uniform(shape, lo=-1.0, hi=1.0, dtype=torch.bfloat16):
    """Inputs uniform in [lo, hi), as the tilec benchmarks draw theirs."""
    return (torch.rand(shape, device="cuda") * (hi - lo) + lo).to(dtype)


def require_gpu():
    if not torch.cuda.is_available():
        print("SKIPPED: no GPU (torch.cuda.is_available() is false)", file=sys.stderr)
        sys.exit(77)
    torch.cuda.init()
