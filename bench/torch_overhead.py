"""Per-call cost of a softmax called from Python at small sizes: tilec's operator
(torch.ops.tilec_nn.softmax_fwd, and through its autograd.Function), torch.softmax, and a
Triton kernel written the same way. Each figure is the wall time of back-to-back calls
divided by their number (launch and Python overhead included), median of 5 rounds.

  TILEC_NN_LIBRARY=<build>/examples/torch/tilec_nn.so python3 bench/torch_overhead.py

Prints one JSON line per measurement, then a table.
"""
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                                "torch"))
import tilec_nn  # noqa: E402

try:
    import triton
    import triton.language as tl

    @triton.jit
    def _softmax_rows(y_ptr, x_ptr, n, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask, other=-float("inf"))
        num = tl.exp(x - tl.max(x, 0))
        tl.store(y_ptr + row * n + cols, num / tl.sum(num, 0), mask=mask)

    def triton_softmax(x):
        y = torch.empty_like(x)
        n = x.shape[-1]
        _softmax_rows[(x.numel() // n,)](y, x, n, BLOCK=triton.next_power_of_2(n))
        return y
except ImportError:
    triton_softmax = None

SIZES = [(1, 128), (64, 256), (512, 1024)]
CALLS = 2000


def per_call_us(fn, x):
    for _ in range(100):
        fn(x)
    torch.cuda.synchronize()
    rounds = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(CALLS):
            fn(x)
        torch.cuda.synchronize()
        rounds.append((time.perf_counter() - t0) / CALLS * 1e6)
    return statistics.median(rounds)


def main():
    if not torch.cuda.is_available():
        print("torch_overhead: no CUDA device (skipped)")
        return 77
    ops = tilec_nn.load()
    providers = [("tilec op", ops.softmax_fwd), ("tilec autograd.Function", tilec_nn.softmax),
                 ("torch.softmax", lambda x: torch.softmax(x, -1))]
    if triton_softmax:
        providers.append(("triton", triton_softmax))
    table = {}
    for shape in SIZES:
        x = torch.randn(shape, device="cuda")
        want = torch.softmax(x, -1)
        for name, fn in providers:
            torch.testing.assert_close(fn(x), want, msg=f"{name} {shape}")
            us = per_call_us(fn, x)
            table[(shape, name)] = us
            print(json.dumps({"bench": "torch_call", "op": "softmax", "shape": list(shape),
                              "provider": name, "us_per_call": round(us, 2)}))
    names = [n for n, _ in providers]
    print("\nsoftmax fp32 from Python, us per call (back to back, median of 5 x %d)" % CALLS)
    print("| shape | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for shape in SIZES:
        cells = " | ".join("%.2f" % table[(shape, n)] for n in names)
        print(f"| {shape[0]}x{shape[1]} | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
