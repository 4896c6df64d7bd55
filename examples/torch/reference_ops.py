"""The operators of tilec_nn written with torch, on any device: for checking the autograd
wiring of tilec_nn.py and the training script on machines without a GPU."""
import torch


class ReferenceOps:
    @staticmethod
    def softmax_fwd(x):
        return torch.softmax(x, -1)

    @staticmethod
    def softmax_bwd(y, dy):
        return y * (dy - (dy * y).sum(-1, keepdim=True))

    @staticmethod
    def layer_norm_fwd(x, weight, bias, eps):
        mean = x.mean(-1)
        d = x - mean[..., None]
        rstd = torch.rsqrt((d * d).mean(-1) + eps)
        return d * rstd[..., None] * weight + bias, mean.reshape(-1), rstd.reshape(-1)

    @staticmethod
    def layer_norm_bwd(dy, x, weight, mean, rstd):
        n = x.shape[-1]
        x2, dy2 = x.reshape(-1, n), dy.reshape(-1, n)
        xhat = (x2 - mean[:, None]) * rstd[:, None]
        wdy = weight * dy2
        c1 = (xhat * wdy).mean(-1, keepdim=True)
        c2 = wdy.mean(-1, keepdim=True)
        dx = (wdy - (xhat * c1 + c2)) * rstd[:, None]
        return dx.reshape(x.shape), (dy2 * xhat).sum(0), dy2.sum(0)
