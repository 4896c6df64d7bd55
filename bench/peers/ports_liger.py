"""Liger-Kernel's kernels that bench_ports.cpp times, re-implemented in Triton for
bench/peers/ports.py from the originals (github.com/linkedin/Liger-Kernel, BSD 2-Clause
licence), with their algorithms, blockings and dtypes. The launchers take torch tensors and
the config; the originals' host-side choices are the caller's."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


# src/liger_kernel/ops/jsd.py: _jsd_kernel. Generalized JSD per element, and its gradient.
@triton.jit
def jsd_kernel(X, x_stride, Y, y_stride, Loss, loss_stride, dX, dx_stride, Labels,
               beta: tl.constexpr, n_non_ignore, ignore_index: tl.constexpr, n_cols,
               BLOCK_SIZE: tl.constexpr, HAS_LABEL: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X += row * x_stride
    Y += row * y_stride
    Loss += row * loss_stride
    dX += row * dx_stride
    if HAS_LABEL:
        if tl.load(Labels + row) == ignore_index:
            for start in range(0, n_cols, BLOCK_SIZE):
                cols = start + tl.arange(0, BLOCK_SIZE)
                tl.store(dX + cols, 0.0, mask=cols < n_cols)
            return
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(X + cols, mask=mask, other=float("-inf")).to(tl.float32)  # log Q
        y = tl.load(Y + cols, mask=mask, other=float("-inf")).to(tl.float32)  # log P
        if beta == 0.0:  # KL(P || Q)
            y_max = tl.max(y, axis=0)
            p = tl.exp(y - y_max) * tl.exp(y_max)
            loss = p * (y - x)
            grad = -p
        elif beta == 1.0:  # KL(Q || P)
            x_max = tl.max(x, axis=0)
            q = tl.exp(x - x_max) * tl.exp(x_max)
            loss = q * (x - y)
            grad = loss + q
        else:
            top = tl.maximum(tl.max(x, axis=0), tl.max(y, axis=0))
            e_top = tl.exp(top)
            q = tl.exp(x - top) * e_top
            p = tl.exp(y - top) * e_top
            bp = beta * p
            cq = (1 - beta) * q
            m = bp + cq
            log_m = tl.log(m)
            loss = bp * y + cq * x - m * log_m
            grad = cq * (x - log_m)
        scale = 1.0 / n_non_ignore
        tl.store(Loss + cols, loss * scale, mask=mask)
        tl.store(dX + cols, grad * scale, mask=mask)


def jsd(x, y, loss, dx, beta, block, warps):
    rows, n = x.shape
    jsd_kernel[(rows,)](x, x.stride(0), y, y.stride(0), loss, loss.stride(0), dx, dx.stride(0),
                        x, beta, rows, -100, n, BLOCK_SIZE=block, HAS_LABEL=False,
                        num_warps=warps)


# src/liger_kernel/ops/tvd.py: _tv_distance_kernel. Labels left out (HAS_LABEL false).
@triton.jit
def tvd_kernel(P, p_stride, Q, q_stride, Loss, loss_stride, Grads, grads_stride, n_cols, scale,
               BLOCK_SIZE: tl.constexpr, PER_ELEMENT: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    P += row * p_stride
    Q += row * q_stride
    Loss += row * loss_stride
    Grads += row * grads_stride
    total = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        p = tl.load(P + cols, mask=mask, other=0.0)
        q = tl.load(Q + cols, mask=mask, other=0.0)
        tv = 0.5 * tl.abs(p - q)
        tl.store(Grads + cols, tl.where(p > q, 0.5 * scale, -0.5 * scale), mask=mask)
        if PER_ELEMENT:  # reduction "none"
            tl.store(Loss + cols, tv, mask=mask)
        else:
            total += tl.sum(tv, axis=0)
    if not PER_ELEMENT:
        tl.store(Loss, total * scale)


def tvd(p, q, loss, grads, scale, block, warps):
    rows, n = p.shape
    tvd_kernel[(rows,)](p, p.stride(0), q, q.stride(0), loss, loss.stride(0), grads,
                        grads.stride(0), n, scale, BLOCK_SIZE=block, PER_ELEMENT=loss.dim() > 1,
                        num_warps=warps)


# src/liger_kernel/ops/dyt.py: _dyt_fwd_kernel, _dyt_bwd_kernel (with beta), without their
# @triton.autotune: the config is the caller's.
@triton.jit
def dyt_fwd_kernel(X, Y, Alpha, Gamma, Beta, N: tl.constexpr, BLOCK_N: tl.constexpr):
    col = tl.program_id(0).to(tl.int64) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = col < N
    row = tl.program_id(1).to(tl.int64)
    alpha = tl.load(Alpha).to(tl.float32)
    gamma = tl.load(Gamma + col, mask=mask, other=0.0).to(tl.float32)
    x = tl.load(X + row * N + col, mask=mask, other=0.0).to(tl.float32)
    y = libdevice.tanh(alpha * x) * gamma
    y += tl.load(Beta + col, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * N + col, y, mask=mask)


@triton.jit
def dyt_bwd_kernel(DY, DX, DA, DG, DB, X, Alpha, Gamma, M, N: tl.constexpr,
                   BLOCK_N: tl.constexpr):
    col = tl.program_id(0).to(tl.int64) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = col < N
    first = tl.program_id(1).to(tl.int64)
    alpha = tl.load(Alpha).to(tl.float32)
    gamma = tl.load(Gamma + col, mask=mask, other=0.0).to(tl.float32)
    da = 0.0
    dg = tl.zeros((BLOCK_N,), dtype=tl.float32)
    db = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for row in range(first, M, tl.num_programs(1)):
        x = tl.load(X + row * N + col, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * N + col, mask=mask, other=0.0).to(tl.float32)
        t = libdevice.tanh(alpha * x)
        db += dy
        dg += dy * t
        inner = (1 - t * t) * dy * gamma
        da += tl.sum(x * inner, 0)
        tl.store(DX + row * N + col, alpha * inner, mask=mask)
    tl.store(DG + first * N + col, dg, mask=mask)
    tl.store(DB + first * N + col, db, mask=mask)
    tl.store(DA + first * tl.cdiv(N, 512) + tl.program_id(0), da)


def dyt_fwd(x, y, alpha, gamma, beta, block, warps, stages):
    M, N = x.shape
    dyt_fwd_kernel[(triton.cdiv(N, block), M)](x, y, alpha, gamma, beta, N, BLOCK_N=block,
                                               num_warps=warps, num_stages=stages)


def dyt_bwd(dy, dx, da, dg, db, x, alpha, gamma, block, warps, stages):
    M, N = x.shape
    programs = dg.shape[0]
    dyt_bwd_kernel[(triton.cdiv(N, block), programs)](dy, dx, da, dg, db, x, alpha, gamma, M, N,
                                                      BLOCK_N=block, num_warps=warps,
                                                      num_stages=stages)


# src/liger_kernel/ops/fused_add_rms_norm.py: _fused_add_rms_norm_forward_kernel,
# _fused_add_rms_norm_backward_kernel, in the "llama" casting mode.
@triton.jit
def fused_add_rms_norm_fwd_kernel(Y, y_stride, S, s_stride, X, x_stride, R, r_stride, W, RSTD,
                                  rstd_stride, n_cols, eps, offset, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    s = tl.load(X + row * x_stride + cols, mask=mask, other=0) + \
        tl.load(R + row * r_stride + cols, mask=mask, other=0)
    tl.store(S + row * s_stride + cols, s, mask=mask)  # the residual for the next layer
    w = tl.load(W + cols, mask=mask, other=0)
    s_type = s.dtype
    s = s.to(tl.float32)
    rstd = tl.rsqrt(tl.sum(s * s, axis=0) / n_cols + eps)
    tl.store(RSTD + row * rstd_stride, rstd)
    y = (s * rstd).to(s_type) * (offset + w)  # llama: the weight meets the row in its type
    tl.store(Y + row * y_stride + cols, y, mask=mask)


@triton.jit
def fused_add_rms_norm_bwd_kernel(dY, dy_stride, dS_out, ds_stride, dX, dx_stride, S, s_stride,
                                  S_dtype: tl.constexpr, W, RSTD, rstd_stride, dW, dw_stride,
                                  n_rows, n_cols, offset, rows_per_program: tl.constexpr,
                                  BLOCK_SIZE: tl.constexpr, HAS_DS_OUT: tl.constexpr):
    block = tl.program_id(0).to(tl.int64)
    first = block * rows_per_program
    last = min((block + 1) * rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dw = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0) + offset.to(tl.float32)
    for row in range(first, last):
        dy = tl.load(dY + row * dy_stride + cols, mask=mask, other=0.0)
        s = tl.load(S + row * s_stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(RSTD + row * rstd_stride)
        dw += dy * (s * rstd).to(S_dtype)
        m = (dy * w).to(tl.float32)
        c = -(1.0 / n_cols) * rstd * rstd * rstd * tl.sum(m * s, axis=0)
        dx = rstd * m + c * s
        if HAS_DS_OUT:
            dx += tl.load(dS_out + row * ds_stride + cols, mask=mask, other=0.0)
        tl.store(dX + row * dx_stride + cols, dx.to(S_dtype), mask=mask)
    tl.store(dW + block * dw_stride + cols, dw, mask=mask)


def fused_add_rms_norm_fwd(y, s, x, r, w, rstd, eps, block, warps, stages):
    rows, n = x.shape
    fused_add_rms_norm_fwd_kernel[(rows,)](y, y.stride(0), s, s.stride(0), x, x.stride(0), r,
                                           r.stride(0), w, rstd, rstd.stride(0), n, eps, 0.0,
                                           BLOCK_SIZE=block, num_warps=warps, num_stages=stages)


def fused_add_rms_norm_bwd(dy, ds, dx, s, w, rstd, dw, block, warps, stages, triton_dtype):
    rows, n = dy.shape
    programs = dw.shape[0]
    fused_add_rms_norm_bwd_kernel[(programs,)](
        dy, dy.stride(0), ds, ds.stride(0), dx, dx.stride(0), s, s.stride(0), triton_dtype, w,
        rstd, rstd.stride(0), dw, dw.stride(0), rows, n, 0.0, triton.cdiv(rows, programs),
        BLOCK_SIZE=block, HAS_DS_OUT=True, num_warps=warps, num_stages=stages)


# src/liger_kernel/ops/qwen2vl_mrope.py: _triton_qwen2vl_mrope (the forward: BACKWARD_PASS
# False; Liger's host picks BLOCK_SIZE = max of the padded head counts, Triton's default 4 warps).
@triton.jit
def qwen2vl_mrope_kernel(q_ptr, k_ptr, cos, sin, sl, bs: tl.constexpr, n_qh: tl.constexpr,
                         n_kh: tl.constexpr, hd: tl.constexpr, pad_n_qh: tl.constexpr,
                         pad_n_kh: tl.constexpr, pad_hd: tl.constexpr,
                         mrope_section_t: tl.constexpr, mrope_section_h: tl.constexpr,
                         BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    q_ptr = q_ptr + pid * (n_qh * hd)
    k_ptr = k_ptr + pid * (n_kh * hd)
    t_end = mrope_section_t
    h_end = t_end + mrope_section_h
    t_cos = cos + pid * hd
    h_cos = t_cos + bs * sl * hd
    w_cos = h_cos + bs * sl * hd
    t_sin = sin + pid * hd
    h_sin = t_sin + bs * sl * hd
    w_sin = h_sin + bs * sl * hd
    cos_offsets = tl.arange(0, pad_hd // 2)
    t_mask = cos_offsets < t_end
    h_mask = (t_end <= cos_offsets) & (cos_offsets < h_end)
    w_mask = (h_end <= cos_offsets) & (cos_offsets < hd // 2)
    cos_row = (tl.load(t_cos + cos_offsets, mask=t_mask, other=0)
               + tl.load(h_cos + cos_offsets, mask=h_mask, other=0)
               + tl.load(w_cos + cos_offsets, mask=w_mask, other=0))
    sin_row = (tl.load(t_sin + cos_offsets, mask=t_mask, other=0)
               + tl.load(h_sin + cos_offsets, mask=h_mask, other=0)
               + tl.load(w_sin + cos_offsets, mask=w_mask, other=0))
    q_offs = tl.arange(0, pad_n_qh)[:, None] * hd + tl.arange(0, pad_hd // 2)[None, :]
    k_offs = tl.arange(0, pad_n_kh)[:, None] * hd + tl.arange(0, pad_hd // 2)[None, :]
    q_mask = (tl.arange(0, pad_n_qh)[:, None] < n_qh) & (tl.arange(0, pad_hd // 2)[None, :] < hd // 2)
    k_mask = (tl.arange(0, pad_n_kh)[:, None] < n_kh) & (tl.arange(0, pad_hd // 2)[None, :] < hd // 2)
    q1 = tl.load(q_ptr + q_offs, mask=q_mask, other=0).to(sin_row.dtype)
    k1 = tl.load(k_ptr + k_offs, mask=k_mask, other=0).to(sin_row.dtype)
    q2 = tl.load(q_ptr + q_offs + hd // 2, mask=q_mask, other=0).to(sin_row.dtype)
    k2 = tl.load(k_ptr + k_offs + hd // 2, mask=k_mask, other=0).to(sin_row.dtype)
    tl.store(q_ptr + q_offs, q1 * cos_row - q2 * sin_row, mask=q_mask)
    tl.store(q_ptr + q_offs + hd // 2, q2 * cos_row + q1 * sin_row, mask=q_mask)
    tl.store(k_ptr + k_offs, k1 * cos_row - k2 * sin_row, mask=k_mask)
    tl.store(k_ptr + k_offs + hd // 2, k2 * cos_row + k1 * sin_row, mask=k_mask)


def qwen2vl_mrope(q, k, cos, sin, mrope_section):
    """q [bs, sl, n_qh, hd], k [bs, sl, n_kh, hd] (physical layout), cos/sin [3, bs, sl, hd]."""
    bs, sl, n_qh, hd = q.shape
    n_kh = k.shape[2]
    pad_qh, pad_kh = triton.next_power_of_2(n_qh), triton.next_power_of_2(n_kh)
    qwen2vl_mrope_kernel[(bs * sl,)](q, k, cos, sin, sl, bs, n_qh, n_kh, hd, pad_qh, pad_kh,
                                     triton.next_power_of_2(hd), mrope_section[0],
                                     mrope_section[1], BLOCK_SIZE=max(pad_qh, pad_kh))


# src/liger_kernel/ops/sparsemax.py: _sparsemax_forward_kernel, _sparsemax_backward_kernel (the
# threshold per row comes from the host, as the original's Python computes it by sorting).
@triton.jit
def sparsemax_forward_kernel(x_ptr, x_stride, tau_ptr, tau_stride, o_ptr, o_stride, n_cols,
                             block_size: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * x_stride
    o_row = o_ptr + row * o_stride
    tau = tl.load(tau_ptr + row * tau_stride).to(tl.float32)
    for i in range(0, tl.cdiv(n_cols, block_size)):
        offs = i * block_size + tl.arange(0, block_size)
        mask = offs < n_cols
        y = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32) - tau
        y = tl.where(y > 0.0, y, 0.0)
        tl.store(o_row + offs, y.to(o_row.dtype.element_ty), mask=mask)


@triton.jit
def sparsemax_backward_kernel(o_ptr, o_stride, go_ptr, go_stride, gi_ptr, gi_stride, n_cols,
                              block_size: tl.constexpr):
    row = tl.program_id(0)
    o_row = o_ptr + row * o_stride
    go_row = go_ptr + row * go_stride
    gi_row = gi_ptr + row * gi_stride
    acc_sum = tl.zeros((), dtype=tl.float32)
    acc_cnt = tl.zeros((), dtype=tl.float32)
    for i in range(0, tl.cdiv(n_cols, block_size)):
        offs = i * block_size + tl.arange(0, block_size)
        mask = offs < n_cols
        o = tl.load(o_row + offs, mask=mask, other=0.0).to(tl.float32)
        go = tl.load(go_row + offs, mask=mask, other=0.0).to(tl.float32)
        acc_sum += tl.sum(tl.where(o > 0.0, go, 0.0))
        acc_cnt += tl.sum(tl.where(o > 0.0, 1.0, 0.0))
    v_hat = tl.cast(acc_sum / tl.maximum(acc_cnt, 1e-9), o_row.dtype.element_ty).to(tl.float32)
    for i in range(0, tl.cdiv(n_cols, block_size)):
        offs = i * block_size + tl.arange(0, block_size)
        mask = offs < n_cols
        o = tl.load(o_row + offs, mask=mask, other=0.0).to(tl.float32)
        go = tl.load(go_row + offs, mask=mask, other=0.0).to(tl.float32)
        gi = tl.where(o > 0.0, go - v_hat, 0.0)
        tl.store(gi_row + offs, gi.to(gi_row.dtype.element_ty), mask=mask)


def sparsemax_fwd(x, tau, o, block, warps):
    M, N = x.shape
    sparsemax_forward_kernel[(M,)](x, x.stride(0), tau, 1, o, o.stride(0), N, block_size=block,
                                   num_warps=warps)


def sparsemax_bwd(o, go, gi, block, warps):
    M, N = o.shape
    sparsemax_backward_kernel[(M,)](o, o.stride(0), go, go.stride(0), gi, gi.stride(0), N,
                                    block_size=block, num_warps=warps)
