"""Softmax and layer norm from tilec kernels, as torch.autograd.Functions and nn.Modules.

load(path) loads the extension built by tilec_add_torch_extension (tilec_nn.so); its
operators are then torch.ops.tilec_nn.*. Forward and backward both run tilec kernels.
"""
import os

import torch

_ops = None


def load(path=None):
    """Loads tilec_nn.so (from $TILEC_NN_LIBRARY when no path is given) once."""
    global _ops
    if _ops is None:
        path = path or os.environ.get("TILEC_NN_LIBRARY")
        if not path:
            raise RuntimeError("tilec_nn: pass the path of tilec_nn.so or set TILEC_NN_LIBRARY")
        torch.ops.load_library(path)
        _ops = torch.ops.tilec_nn
    return _ops


def use_ops(ops):
    """Replaces the operators (tests on machines without a GPU pass reference ones)."""
    global _ops
    _ops = ops


class SoftmaxFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = _ops.softmax_fwd(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        # Gradients may arrive strided (expand, transpose); the kernels take dense rows.
        return _ops.softmax_bwd(y, dy.contiguous())


class LayerNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, eps):
        y, mean, rstd = _ops.layer_norm_fwd(x, weight, bias, eps)
        ctx.save_for_backward(x, weight, mean, rstd)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, weight, mean, rstd = ctx.saved_tensors
        dx, dw, db = _ops.layer_norm_bwd(dy.contiguous(), x, weight, mean, rstd)
        return dx, dw, db, None


def softmax(x):
    """Softmax over the last dimension (float32 or float64, rows of up to 4096)."""
    return SoftmaxFn.apply(x.contiguous())


class LayerNorm(torch.nn.Module):
    """torch.nn.LayerNorm over the last dimension, with tilec kernels."""

    def __init__(self, n, eps=1e-5, device=None, dtype=None):
        super().__init__()
        self.eps = eps
        self.weight = torch.nn.Parameter(torch.ones(n, device=device, dtype=dtype))
        self.bias = torch.nn.Parameter(torch.zeros(n, device=device, dtype=dtype))

    def forward(self, x):
        return LayerNormFn.apply(x.contiguous(), self.weight, self.bias, self.eps)
