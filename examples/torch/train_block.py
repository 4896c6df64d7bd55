"""Trains a small transformer block twice from the same seed, once with tilec's softmax and
layer norm (forward and backward kernels) and once with eager PyTorch, and compares the
losses step by step.

  TILEC_NN_LIBRARY=build/examples/torch/tilec_nn.so python3 train_block.py [--steps 200]

Exits 0 when every step's losses agree within --rtol (relative), 1 otherwise, and 77 (skipped)
without a GPU unless --reference-ops is given (torch formulas instead of the kernels, on CPU:
checks this script and the autograd wiring only).
"""
import argparse
import math
import sys
import time

import torch
import torch.nn.functional as F

import tilec_nn


class Block(torch.nn.Module):
    """Pre-norm transformer block with causal self-attention, then a vocabulary head."""

    def __init__(self, vocab, d, heads, seq, use_tilec):
        super().__init__()
        self.heads, self.use_tilec = heads, use_tilec
        self.embed = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.randn(seq, d) * 0.02)
        self.ln1, self.ln2, self.ln_f = (torch.nn.LayerNorm(d) for _ in range(3))
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)
        self.up = torch.nn.Linear(d, 4 * d)
        self.down = torch.nn.Linear(4 * d, d)
        self.head = torch.nn.Linear(d, vocab)
        self.register_buffer("causal", torch.full((seq, seq), -math.inf).triu(1))

    def norm(self, ln, x):
        if self.use_tilec:
            return tilec_nn.LayerNormFn.apply(x.contiguous(), ln.weight, ln.bias, ln.eps)
        return F.layer_norm(x, ln.normalized_shape, ln.weight, ln.bias, ln.eps)

    def softmax(self, x):
        return tilec_nn.softmax(x) if self.use_tilec else torch.softmax(x, -1)

    def forward(self, tokens):
        b, t = tokens.shape
        x = self.embed(tokens) + self.pos[:t]
        q, k, v = self.qkv(self.norm(self.ln1, x)).chunk(3, -1)
        q, k, v = (z.reshape(b, t, self.heads, -1).transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + self.causal[:t, :t]
        att = (self.softmax(scores) @ v).transpose(1, 2).reshape(b, t, -1)
        x = x + self.proj(att)
        x = x + self.down(F.gelu(self.up(self.norm(self.ln2, x))))
        return self.head(self.norm(self.ln_f, x))


def batches(steps, batch, seq, vocab, device, seed):
    """Random first tokens, then each token a fixed function of the one before it."""
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        s = torch.randint(0, vocab, (batch, seq + 1), generator=g)
        for i in range(1, seq + 1):
            s[:, i] = (s[:, i - 1] * 3 + 1) % vocab
        yield s[:, :-1].to(device), s[:, 1:].to(device)


def train(use_tilec, args, device, dtype):
    torch.manual_seed(args.seed)
    model = Block(args.vocab, args.d, args.heads, args.seq, use_tilec).to(device, dtype)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    losses = []
    t0 = time.perf_counter()
    for x, y in batches(args.steps, args.batch, args.seq, args.vocab, device, args.seed):
        loss = F.cross_entropy(model(x).reshape(-1, args.vocab).float(), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, time.perf_counter() - t0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--vocab", type=int, default=97)
    p.add_argument("--d", type=int, default=128)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    p.add_argument("--rtol", type=float, default=None,
                   help="largest relative loss difference allowed (default: 1e-3 for float32, "
                        "1e-9 for float64)")
    p.add_argument("--reference-ops", action="store_true")
    args = p.parse_args()
    dtype = getattr(torch, args.dtype)
    rtol = args.rtol if args.rtol is not None else (1e-3 if dtype == torch.float32 else 1e-9)

    if args.reference_ops:
        from reference_ops import ReferenceOps
        tilec_nn.use_ops(ReferenceOps)
        device = "cuda" if torch.cuda.is_available() else "cpu"
    elif not torch.cuda.is_available():
        print("train_block: no CUDA device (skipped)")
        return 77
    else:
        tilec_nn.load()
        device = "cuda"
        # Both runs use the same matmuls; TF32 off keeps them exactly alike within a run.
        torch.backends.cuda.matmul.allow_tf32 = False

    eager, t_eager = train(False, args, device, dtype)
    tilec, t_tilec = train(True, args, device, dtype)
    worst, worst_step = 0.0, 0
    for i, (a, b) in enumerate(zip(eager, tilec)):
        rel = abs(a - b) / max(abs(a), 1e-12)
        if rel > worst:
            worst, worst_step = rel, i
    print(f"train_block: {args.steps} steps, {args.dtype}, device {device}")
    for i in sorted({0, 1, args.steps // 2, args.steps - 1}):
        print(f"  step {i:4d}: eager {eager[i]:.6f}  tilec {tilec[i]:.6f}")
    print(f"  largest relative difference {worst:.2e} at step {worst_step} (allowed {rtol:.0e})")
    print(f"  time: eager {t_eager:.2f} s, tilec {t_tilec:.2f} s")
    ok = worst <= rtol and eager[-1] < eager[0]
    if eager[-1] >= eager[0]:
        print("train_block: the loss did not go down")
    print("train_block:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
