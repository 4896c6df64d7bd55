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


def require_gpu():
    if not torch.cuda.is_available():
        print("SKIPPED: no GPU (torch.cuda.is_available() is false)", file=sys.stderr)
        sys.exit(77)
    torch.cuda.init()
