"""Unsloth's kernels that bench_ports.cpp times, re-implemented in Triton for
bench/peers/ports.py from the originals (github.com/unslothai/unsloth, Apache License 2.0),
with their algorithms, blockings and dtypes. The launchers take torch tensors and the config;
the originals' host-side choices are the caller's."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


# unsloth/kernels/rms_layernorm.py: _rms_layernorm_forward, _rms_layernorm_backward (strides,
# n_cols and eps are constexprs there too).
@triton.jit
def rms_layernorm_fwd_kernel(Y, y_stride: tl.constexpr, X, x_stride: tl.constexpr, W, R,
                             n_cols: tl.constexpr, eps: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(X + row * x_stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0)
    inv = tl.math.rsqrt(tl.sum(x * x, axis=0) / n_cols + tl.full((), eps, tl.float32))
    tl.store(R + row, inv)
    tl.store(Y + row * y_stride + cols, (x * inv).to(w.dtype) * w, mask=mask)


@triton.jit
def rms_layernorm_bwd_kernel(dY, dy_stride: tl.constexpr, dX, X, x_stride: tl.constexpr, W, R,
                             n_cols: tl.constexpr, GEMMA: tl.constexpr,
                             BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dY += row * dy_stride
    if GEMMA:
        dX += row * dy_stride
    else:
        dX = dY  # written in place
    dy = tl.load(dY + cols, mask=mask, other=0).to(tl.float32)
    x = tl.load(X + row * x_stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0).to(tl.float32)
    inv = tl.load(R + row).to(tl.float32)
    normed = x * inv
    if GEMMA:
        dyw = dy * (w + 1.0)
    else:
        dyw = dy * w
    total = tl.sum(dyw * normed, axis=0)
    tl.store(dX + cols, inv / n_cols * (n_cols * dyw - normed * total), mask=mask)


def rms_layernorm_fwd(y, x, w, r, eps, block, warps):
    rows, n = x.shape
    rms_layernorm_fwd_kernel[(rows,)](y, y.stride(0), x, x.stride(0), w, r, n, eps,
                                      BLOCK_SIZE=block, num_warps=warps)


def rms_layernorm_bwd(dy, x, w, r, block, warps):
    rows, n = dy.shape
    rms_layernorm_bwd_kernel[(rows,)](dy, dy.stride(0), dy, x, x.stride(0), w, r, n, GEMMA=False,
                                      BLOCK_SIZE=block, num_warps=warps)


# unsloth/kernels/geglu.py: _exact_forward_kernel, _exact_backward_kernel,
# _approx_forward_kernel, _approx_backward_kernel (the int32 indexing; the host picks int64
# only past 2^31 - 4096 elements).
@triton.jit
def geglu_fwd_kernel(E, G, H, n_elements, BLOCK_SIZE: tl.constexpr, EXACT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    e = tl.load(E + offs, mask=mask, other=0).to(tl.float32)
    g = tl.load(G + offs, mask=mask, other=0)
    if EXACT:
        f = 0.5 * e * (tl.math.erf(tl.math.rsqrt(2.0) * e) + 1.0)
    else:
        f = 0.5 * e * (libdevice.tanh(0.7978845608028654 * e * (1.0 + 0.044715 * e * e)) + 1.0)
    tl.store(H + offs, f.to(g.dtype) * g, mask=mask)


@triton.jit
def geglu_bwd_kernel(DW, E, G, n_elements, BLOCK_SIZE: tl.constexpr, EXACT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    dw = tl.load(DW + offs, mask=mask, other=0)
    e = tl.load(E + offs, mask=mask, other=0).to(tl.float32)
    g = tl.load(G + offs, mask=mask, other=0)
    if EXACT:
        half_cdf = 0.5 * (tl.math.erf(tl.math.rsqrt(2.0) * e) + 1.0)
        f = half_cdf * e
        df_de = half_cdf + 0.3989422804014327 * e * tl.exp(-0.5 * e * e)
    else:
        a = 0.7978845608028654 * e
        b = a * 0.044715 * e * e
        t1 = 1.0 + libdevice.tanh(a + b)
        t2 = 0.5 * t1
        df_de = t2 - t2 * (t1 - 2.0) * (a + 3.0 * b)
        f = t2 * e
    f = f.to(dw.dtype)
    de = ((dw * g).to(tl.float32) * df_de).to(dw.dtype)
    tl.store(DW + offs, f * g, mask=mask)  # h
    tl.store(E + offs, dw * f, mask=mask)  # the gradient of the up projection
    tl.store(G + offs, de, mask=mask)  # the gradient of the gate


def geglu_fwd(e, g, h, exact, block=1024, warps=4):
    n = e.numel()
    geglu_fwd_kernel[(triton.cdiv(n, block),)](e, g, h, n, BLOCK_SIZE=block, EXACT=exact,
                                               num_warps=warps)


def geglu_bwd(dw, e, g, exact, block=1024, warps=4):
    n = e.numel()
    geglu_bwd_kernel[(triton.cdiv(n, block),)](dw, e, g, n, BLOCK_SIZE=block, EXACT=exact,
                                               num_warps=warps)


# unsloth/kernels/cross_entropy_loss.py: _cross_entropy_forward, _chunked_cross_entropy_forward,
# _cross_entropy_backward (logit scaling left out: off in both rows).
@triton.jit
def _capped(x, SOFTCAP: tl.constexpr, DO_SOFTCAPPING: tl.constexpr):
    if DO_SOFTCAPPING:
        x = SOFTCAP * libdevice.tanh(x / SOFTCAP)
    return x


@triton.jit
def cross_entropy_fwd_kernel(Logits, stride, Loss, LSE, Labels, VOCAB_SIZE: tl.constexpr,
                             BLOCK_SIZE: tl.constexpr, DO_SOFTCAPPING: tl.constexpr,
                             SOFTCAP: tl.constexpr):
    row = tl.program_id(0)
    Logits += row * tl.cast(stride, tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    label = tl.load(Labels + row).to(tl.int32)
    x = tl.load(Logits + cols, mask=cols < VOCAB_SIZE, other=-float("inf")).to(tl.float32)
    x = _capped(x, SOFTCAP, DO_SOFTCAPPING)
    c = tl.max(x, 0)
    lse = c + tl.log(tl.sum(tl.exp(x - c), 0))
    if label != -100:
        loss = lse - _capped(tl.load(Logits + label).to(tl.float32), SOFTCAP, DO_SOFTCAPPING)
    else:
        loss = 0.0
    tl.store(LSE + row, lse)
    tl.store(Loss + row, loss)


@triton.jit
def chunked_cross_entropy_fwd_kernel(Logits, stride: tl.constexpr, Loss, LSE, Labels,
                                     VOCAB_SIZE: tl.constexpr, N_CHUNKS: tl.constexpr,
                                     BLOCK_SIZE: tl.constexpr, DO_SOFTCAPPING: tl.constexpr,
                                     SOFTCAP: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    Logits += row * tl.cast(stride, tl.int64)
    cols = chunk * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    label = tl.load(Labels + row).to(tl.int32)
    x = tl.load(Logits + cols, mask=cols < VOCAB_SIZE, other=-float("inf")).to(tl.float32)
    x = _capped(x, SOFTCAP, DO_SOFTCAPPING)
    c = tl.max(x, 0)
    lse = c + tl.log(tl.sum(tl.exp(x - c), 0))
    if chunk == 0:  # -x[label] here; the host adds the logsumexp of the chunks' logsumexps
        if label != -100:
            loss = -1.0 * _capped(tl.load(Logits + label).to(tl.float32), SOFTCAP,
                                  DO_SOFTCAPPING)
        else:
            loss = 0.0
        tl.store(Loss + row, loss)
    tl.store(LSE + row * N_CHUNKS + chunk, lse)


@triton.jit
def cross_entropy_bwd_kernel(Logits, stride: tl.constexpr, dLoss, dloss_stride: tl.constexpr,
                             LSE, Labels, VOCAB_SIZE: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                             DO_SOFTCAPPING: tl.constexpr, SOFTCAP: tl.constexpr):
    row = tl.program_id(0)
    block = tl.program_id(1)
    Logits += row * tl.cast(stride, tl.int64)
    cols = block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < VOCAB_SIZE
    label = tl.load(Labels + row).to(tl.int32)
    if label != -100:
        dloss = tl.load(dLoss + row * dloss_stride)
    else:
        dloss = 0.0
    x = tl.load(Logits + cols, mask=mask, other=-float("inf")).to(tl.float32)
    t = x
    if DO_SOFTCAPPING:
        t = libdevice.tanh(x / SOFTCAP)
        x = SOFTCAP * t
    y = tl.exp(x - tl.load(LSE + row))
    y = tl.where(cols == label, y - 1.0, y)
    if DO_SOFTCAPPING:
        y = y * (1.0 - t * t)
    tl.store(Logits + cols, dloss * y, mask=mask)  # over the logits


def cross_entropy_fwd(logits, loss, lse, labels, block, warps, softcap=0.0):
    rows, vocab = logits.shape
    cross_entropy_fwd_kernel[(rows,)](logits, logits.stride(0), loss, lse, labels, vocab,
                                      BLOCK_SIZE=block, DO_SOFTCAPPING=softcap != 0,
                                      SOFTCAP=softcap, num_warps=warps)


def chunked_cross_entropy_fwd(logits, loss, lse, labels, block, warps, softcap=0.0):
    rows, vocab = logits.shape
    chunks = triton.cdiv(vocab, block)
    chunked_cross_entropy_fwd_kernel[(rows, chunks)](
        logits, logits.stride(0), loss, lse, labels, vocab, chunks, BLOCK_SIZE=block,
        DO_SOFTCAPPING=softcap != 0, SOFTCAP=softcap, num_warps=warps)


def cross_entropy_bwd(logits, dloss, lse, labels, block, warps, softcap=0.0):
    rows, vocab = logits.shape
    cross_entropy_bwd_kernel[(rows, triton.cdiv(vocab, block))](
        logits, logits.stride(0), dloss, dloss.stride(0), lse, labels, vocab, BLOCK_SIZE=block,
        DO_SOFTCAPPING=softcap != 0, SOFTCAP=softcap, num_warps=warps)
