"""Checks of the tilec_nn extension (TILEC_NN_LIBRARY=<path of tilec_nn.so>).

Anywhere: bad tensors get clear errors, and the autograd wiring of tilec_nn.py is right
(gradcheck with reference operators). With a GPU: the kernels against torch at odd sizes
(outputs poisoned first), gradcheck in float64 on the kernels, strided and mixed inputs
refused, and torch.compile through the operators.
"""
import os
import sys
import unittest

import torch
import torch.utils.dlpack

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilec_nn  # noqa: E402
from reference_ops import ReferenceOps  # noqa: E402

ops = tilec_nn.load()
cuda = torch.cuda.is_available()
torch_version = tuple(int(v) for v in torch.__version__.split("+")[0].split(".")[:2])


def poison_allocator(shape, dtype):
    """Fills and frees a block of the size the next output will take: an output lane the kernel
    misses then reads NaN rather than a stale, possibly right, value."""
    if cuda:
        torch.full(shape, float("nan"), dtype=dtype, device="cuda")


class BadInputs(unittest.TestCase):
    def test_cpu_tensor(self):
        with self.assertRaisesRegex(RuntimeError,
                                    "softmax_fwd: argument 'x' must be a CUDA tensor, got one on cpu"):
            ops.softmax_fwd(torch.ones(4, 8))

    def test_cpu_tensor_layer_norm(self):
        x, w = torch.ones(4, 8), torch.ones(8)
        with self.assertRaisesRegex(RuntimeError, "layer_norm_fwd: argument '.*' must be a CUDA tensor"):
            ops.layer_norm_fwd(x, w, w, 1e-5)

    def test_unsupported_type(self):
        with self.assertRaisesRegex(TypeError, "softmax_fwd: float32 or float64 tensors, got Half"):
            ops.softmax_fwd(torch.ones(4, 8, dtype=torch.half))

    def test_row_too_long(self):
        with self.assertRaisesRegex(RuntimeError, "rows of at most 4096 elements, got 5000"):
            ops.softmax_fwd(torch.ones(2, 5000))

    def test_weight_shape(self):
        x, w = torch.ones(4, 8), torch.ones(7)
        with self.assertRaisesRegex(RuntimeError, r"weight must have shape \[8\], got \[7\]"):
            ops.layer_norm_fwd(x, w, w, 1e-5)

    @unittest.skipUnless(cuda, "needs a GPU")
    def test_non_contiguous(self):
        x = torch.randn(8, 4, device="cuda").t()
        with self.assertRaisesRegex(RuntimeError, "softmax_fwd: argument 'x' must be contiguous"):
            ops.softmax_fwd(x)

    @unittest.skipUnless(cuda, "needs a GPU")
    def test_weight_type(self):
        x = torch.randn(4, 8, device="cuda")
        w = torch.ones(8, device="cuda", dtype=torch.float64)
        b = torch.zeros(8, device="cuda")
        with self.assertRaisesRegex(TypeError, "layer_norm_fwd: argument 'w' must be a tensor of Float, got Double"):
            ops.layer_norm_fwd(x, w, b, 1e-5)

    @unittest.skipUnless(cuda, "needs a GPU")
    def test_weight_on_cpu(self):
        x = torch.randn(4, 8, device="cuda")
        w = torch.ones(8)
        with self.assertRaisesRegex(RuntimeError, "argument 'w' must be a CUDA tensor, got one on cpu"):
            ops.layer_norm_fwd(x, w, w, 1e-5)

    @unittest.skipUnless(cuda and torch.cuda.device_count() > 1, "needs two GPUs")
    def test_mixed_devices(self):
        x = torch.randn(4, 8, device="cuda:0")
        w = torch.ones(8, device="cuda:1")
        with self.assertRaisesRegex(RuntimeError, "all tensors of one launch must be on one device"):
            ops.layer_norm_fwd(x, w, w, 1e-5)


class DLPack(unittest.TestCase):
    """Arrays of other libraries (CuPy, JAX, NumPy) come in through torch.from_dlpack, without a
    copy; the operators then see ordinary tensors."""

    def test_host_array_is_refused(self):
        import numpy as np
        x = torch.from_dlpack(np.ones((4, 8), dtype=np.float32))
        with self.assertRaisesRegex(RuntimeError, "argument 'x' must be a CUDA tensor, got one on cpu"):
            ops.softmax_fwd(x)

    @unittest.skipUnless(cuda, "needs a GPU")
    def test_device_capsule(self):
        src = torch.randn(16, 100, device="cuda")
        x = torch.from_dlpack(torch.utils.dlpack.to_dlpack(src))  # as from another library
        self.assertEqual(x.data_ptr(), src.data_ptr())
        y = ops.softmax_fwd(x)
        torch.testing.assert_close(y, torch.softmax(src, -1))
        back = torch.utils.dlpack.to_dlpack(y)  # what cupy.from_dlpack / jax.dlpack take
        self.assertEqual(torch.from_dlpack(back).data_ptr(), y.data_ptr())


class AutogradWiring(unittest.TestCase):
    """The autograd Functions with torch formulas in place of the kernels (any machine)."""

    def setUp(self):
        tilec_nn.use_ops(ReferenceOps)

    def tearDown(self):
        tilec_nn.use_ops(ops)

    def test_gradcheck(self):
        x = torch.randn(3, 7, dtype=torch.float64, requires_grad=True)
        w = torch.randn(7, dtype=torch.float64, requires_grad=True)
        b = torch.randn(7, dtype=torch.float64, requires_grad=True)
        self.assertTrue(torch.autograd.gradcheck(tilec_nn.SoftmaxFn.apply, (x,)))
        self.assertTrue(torch.autograd.gradcheck(
            lambda x, w, b: tilec_nn.LayerNormFn.apply(x, w, b, 1e-5), (x, w, b)))


@unittest.skipUnless(cuda, "needs a GPU")
class Kernels(unittest.TestCase):
    def test_softmax_matches_torch(self):
        for shape in [(1, 1), (3, 33), (5, 100), (2, 3, 1000), (4, 4096)]:
            for dtype, tol in [(torch.float32, 1e-5), (torch.float64, 1e-12)]:
                x = (torch.randn(shape, device="cuda", dtype=dtype) * 4).requires_grad_()
                dy = torch.randn(shape, device="cuda", dtype=dtype)
                poison_allocator(shape, dtype)
                y = tilec_nn.softmax(x)
                (dx,) = torch.autograd.grad(y, x, dy)
                xr = x.detach().requires_grad_()
                yr = torch.softmax(xr, -1)
                (dxr,) = torch.autograd.grad(yr, xr, dy)
                torch.testing.assert_close(y, yr, rtol=tol, atol=tol, msg=f"softmax {shape} {dtype}")
                torch.testing.assert_close(dx, dxr, rtol=10 * tol, atol=10 * tol,
                                           msg=f"softmax grad {shape} {dtype}")

    def test_layer_norm_matches_torch(self):
        for shape in [(1, 2), (3, 33), (130, 100), (2, 5, 1000), (8, 4096)]:
            for dtype, tol in [(torch.float32, 2e-5), (torch.float64, 1e-11)]:
                n = shape[-1]
                x = (torch.randn(shape, device="cuda", dtype=dtype) * 3 + 1).requires_grad_()
                w = torch.randn(n, device="cuda", dtype=dtype, requires_grad=True)
                b = torch.randn(n, device="cuda", dtype=dtype, requires_grad=True)
                dy = torch.randn(shape, device="cuda", dtype=dtype)
                poison_allocator(shape, dtype)
                y = tilec_nn.LayerNormFn.apply(x, w, b, 1e-5)
                got = torch.autograd.grad(y, (x, w, b), dy)
                yr = torch.nn.functional.layer_norm(x, (n,), w, b, 1e-5)
                want = torch.autograd.grad(yr, (x, w, b), dy)
                torch.testing.assert_close(y, yr, rtol=tol, atol=tol, msg=f"layer norm {shape} {dtype}")
                # dw and db sum over rows: their error grows with the row count.
                for g, r, name in zip(got, want, ("dx", "dw", "db")):
                    t = tol * (1 if name == "dx" else shape[0]) * 10
                    torch.testing.assert_close(g, r, rtol=t, atol=t,
                                               msg=f"layer norm {name} {shape} {dtype}")

    def test_gradcheck_float64(self):
        x = torch.randn(5, 37, device="cuda", dtype=torch.float64, requires_grad=True)
        w = torch.randn(37, device="cuda", dtype=torch.float64, requires_grad=True)
        b = torch.randn(37, device="cuda", dtype=torch.float64, requires_grad=True)
        self.assertTrue(torch.autograd.gradcheck(tilec_nn.SoftmaxFn.apply, (x,)))
        self.assertTrue(torch.autograd.gradcheck(
            lambda x, w, b: tilec_nn.LayerNormFn.apply(x, w, b, 1e-5), (x, w, b)))

    def test_current_stream(self):
        """The launch goes on the caller's current stream: there it runs after the copy that
        a sleeping kernel holds back; on any other stream it would read the zeros."""
        src = torch.randn(64, 512, device="cuda")
        x = torch.zeros_like(src)
        torch.cuda.synchronize()
        s = torch.cuda.Stream()  # non-blocking: no implicit order with the default stream
        with torch.cuda.stream(s):
            torch.cuda._sleep(20_000_000)
            x.copy_(src)
            y = ops.softmax_fwd(x)
        s.synchronize()
        torch.testing.assert_close(y, torch.softmax(src, -1))

    @unittest.skipUnless(torch_version >= (2, 4), "torch.compile of custom operators")
    def test_torch_compile(self):
        ln = tilec_nn.LayerNorm(256, device="cuda")

        def f(x):
            return tilec_nn.softmax(ln(x) * 2)

        x = torch.randn(32, 256, device="cuda")
        torch.testing.assert_close(torch.compile(f)(x), f(x))


if __name__ == "__main__":
    unittest.main(verbosity=2)
