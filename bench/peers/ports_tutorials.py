"""Triton's tutorial kernels that bench_ports.cpp times (github.com/triton-lang/triton, MIT
licence), re-implemented for bench/peers/ports.py."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


# python/tutorials/04-low-memory-dropout.py: _dropout (the int32 mask compared with 0, which
# Triton 3.6 asks for where the tutorial passes it as the condition).
@triton.jit
def dropout_kernel(X, Keep, Out, n_elements, p, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(X + offs, mask=mask)
    keep = tl.load(Keep + offs, mask=mask)
    tl.store(Out + offs, tl.where(keep != 0, x / (1 - p), 0.0), mask=mask)


# python/tutorials/07-extern-functions.py: asin_kernel.
@triton.jit
def asin_kernel(X, Y, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    tl.store(Y + offs, libdevice.asin(tl.load(X + offs, mask=mask)), mask=mask)


def dropout(x, keep, out, p, block=1024):
    n = x.numel()
    dropout_kernel[(triton.cdiv(n, block),)](x, keep, out, n, p, BLOCK_SIZE=block)


def asin(x, y, block=1024):
    n = x.numel()
    asin_kernel[(triton.cdiv(n, block),)](x, y, n, BLOCK_SIZE=block)
