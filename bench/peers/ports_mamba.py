"""Mamba's kernels that bench_ports.cpp times, re-implemented in Triton for
bench/peers/ports.py from the originals at e9594ce1 (github.com/state-spaces/mamba, Apache
License 2.0), with their algorithms, blockings and dtypes, and their host code's choices."""
import torch
import triton
import triton.language as tl


# mamba_ssm/ops/triton/softplus.py (Triton 3): softplus.
@triton.jit
def _softplus(dt):
    return tl.math.log(tl.math.exp(dt) + 1)


# mamba_ssm/ops/triton/selective_state_update.py: _selective_scan_update_kernel, without
# state_batch_indices (none in a plain decoding step).
@triton.jit
def selective_state_update_kernel(
        state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr,
        batch, nheads, dim, dstate, nheads_ngroups_ratio,
        s_state_b, s_state_h, s_state_m, s_state_n, s_x_b, s_x_h, s_x_m, s_dt_b, s_dt_h, s_dt_m,
        s_dtb_h, s_dtb_m, s_A_h, s_A_m, s_A_n, s_B_b, s_B_g, s_B_n, s_C_b, s_C_g, s_C_n,
        s_D_h, s_D_m, s_z_b, s_z_h, s_z_m, s_out_b, s_out_h, s_out_m,
        DT_SOFTPLUS: tl.constexpr, TIE_HDIM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
        HAS_DT_BIAS: tl.constexpr, HAS_D: tl.constexpr, HAS_Z: tl.constexpr,
        BLOCK_SIZE_DSTATE: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_b = tl.program_id(1)
    pid_h = tl.program_id(2)
    group = pid_h // nheads_ngroups_ratio
    state_ptr += pid_b * s_state_b + pid_h * s_state_h
    x_ptr += pid_b * s_x_b + pid_h * s_x_h
    dt_ptr += pid_b * s_dt_b + pid_h * s_dt_h
    A_ptr += pid_h * s_A_h
    B_ptr += pid_b * s_B_b + group * s_B_g
    C_ptr += pid_b * s_C_b + group * s_C_g
    out_ptr += pid_b * s_out_b + pid_h * s_out_h
    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = tl.arange(0, BLOCK_SIZE_DSTATE)
    m_mask = offs_m < dim
    tile_mask = m_mask[:, None] & (offs_n[None, :] < dstate)
    state_ptrs = state_ptr + offs_m[:, None] * s_state_m + offs_n[None, :] * s_state_n
    state = tl.load(state_ptrs, mask=tile_mask, other=0.0)
    x = tl.load(x_ptr + offs_m * s_x_m, mask=m_mask, other=0.0).to(tl.float32)
    if not TIE_HDIM:
        dt = tl.load(dt_ptr + offs_m * s_dt_m, mask=m_mask, other=0.0).to(tl.float32)
        if HAS_DT_BIAS:
            dt += tl.load(dt_bias_ptr + pid_h * s_dtb_h + offs_m * s_dtb_m, mask=m_mask,
                          other=0.0).to(tl.float32)
        if DT_SOFTPLUS:
            dt = tl.where(dt <= 20.0, _softplus(dt), dt)
        A = tl.load(A_ptr + offs_m[:, None] * s_A_m + offs_n[None, :] * s_A_n, mask=tile_mask,
                    other=0.0).to(tl.float32)
        dA = tl.exp(A * dt[:, None])
    else:
        dt = tl.load(dt_ptr).to(tl.float32)
        if HAS_DT_BIAS:
            dt += tl.load(dt_bias_ptr + pid_h * s_dtb_h).to(tl.float32)
        if DT_SOFTPLUS:
            dt = tl.where(dt <= 20.0, _softplus(dt), dt)
        dA = tl.exp(tl.load(A_ptr).to(tl.float32) * dt)  # one value for the head
    B = tl.load(B_ptr + offs_n * s_B_n, mask=offs_n < dstate, other=0.0).to(tl.float32)
    C = tl.load(C_ptr + offs_n * s_C_n, mask=offs_n < dstate, other=0.0).to(tl.float32)
    if not TIE_HDIM:
        dB = B[None, :] * dt[:, None]
    else:
        dB = B * dt
    state = state * dA + dB * x[:, None]
    tl.store(state_ptrs, state, mask=tile_mask)
    out = tl.sum(state * C[None, :], axis=1)
    if HAS_D:
        out += x * tl.load(D_ptr + pid_h * s_D_h + offs_m * s_D_m, mask=m_mask,
                           other=0.0).to(tl.float32)
    if HAS_Z:
        z = tl.load(z_ptr + pid_b * s_z_b + pid_h * s_z_h + offs_m * s_z_m, mask=m_mask,
                    other=0.0).to(tl.float32)
        out *= z * tl.sigmoid(z)
    tl.store(out_ptr + offs_m * s_out_m, out, mask=m_mask)


def selective_state_update_config(dstate):
    """Mamba's hand-tuned BLOCK_SIZE_M and num_warps by dstate."""
    return ((32, 4) if dstate <= 16 else (16, 4) if dstate <= 32 else
            (8, 4) if dstate <= 64 else (4, 4) if dstate <= 128 else (4, 8))


def selective_state_update(state, x, dt, A, B, C, D, dt_bias, out, z=None, softplus=True):
    """Mamba's host code: state (batch, nheads, dim, dstate); x, dt, z and out (batch, nheads,
    dim); A (nheads, dim, dstate); B and C (batch, ngroups, dstate); D and dt_bias (nheads,
    dim). dt, dt_bias and A with stride 0 along dim (and dstate) tie them per head."""
    _, nheads, dim, dstate = state.shape
    batch = x.shape[0]
    ngroups = B.shape[1]
    block_m, warps = selective_state_update_config(dstate)
    tie = A.stride(-1) == 0 and A.stride(-2) == 0 and dt.stride(-1) == 0 and \
        dt_bias.stride(-1) == 0
    zs = z.stride() if z is not None else (0, 0, 0)
    grid = (triton.cdiv(dim, block_m), batch, nheads)
    selective_state_update_kernel[grid](
        state, x, dt, dt_bias, A, B, C, D, z, out, batch, nheads, dim, dstate, nheads // ngroups,
        *state.stride(), *x.stride(), *dt.stride(), *dt_bias.stride(), *A.stride(), *B.stride(),
        *C.stride(), *D.stride(), *zs, *out.stride(), DT_SOFTPLUS=softplus, TIE_HDIM=tie,
        BLOCK_SIZE_M=block_m, HAS_DT_BIAS=True, HAS_D=True, HAS_Z=z is not None,
        BLOCK_SIZE_DSTATE=triton.next_power_of_2(dstate), num_warps=warps)


# mamba_ssm/ops/triton/layernorm_gated.py: _layer_norm_fwd_1pass_kernel (no bias, as
# RMSNormGated has none).
@triton.jit
def layer_norm_gated_kernel(X, Y, W, Z, Mean, Rstd, stride_x, stride_y, stride_z, M, N, eps,
                            BLOCK_N: tl.constexpr, HAS_Z: tl.constexpr,
                            NORM_BEFORE_GATE: tl.constexpr, IS_RMS_NORM: tl.constexpr):
    row = tl.program_id(0)
    group = tl.program_id(1)
    X += row * stride_x + group * N
    Y += row * stride_y + group * N
    if HAS_Z:
        Z += row * stride_z + group * N
    if not IS_RMS_NORM:
        Mean += group * M
    Rstd += group * M
    W += group * N
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
    if HAS_Z and not NORM_BEFORE_GATE:
        z = tl.load(Z + cols, mask=mask).to(tl.float32)
        x *= z * tl.sigmoid(z)
    if not IS_RMS_NORM:
        mean = tl.sum(x, axis=0) / N
        tl.store(Mean + row, mean)
        xc = tl.where(mask, x - mean, 0.)
        var = tl.sum(xc * xc, axis=0) / N
    else:
        xc = tl.where(mask, x, 0.)
        var = tl.sum(xc * xc, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Rstd + row, rstd)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    x_hat = (x - mean) * rstd if not IS_RMS_NORM else x * rstd
    y = x_hat * w
    if HAS_Z and NORM_BEFORE_GATE:
        z = tl.load(Z + cols, mask=mask).to(tl.float32)
        y *= z * tl.sigmoid(z)
    tl.store(Y + cols, y, mask=mask)


def rms_norm_gated_config(group, element_size):
    """Mamba's _layer_norm_fwd: BLOCK_N the group rounded up to a power of two (at most 64 KB),
    min(max(BLOCK_N // 256, 1), 8) warps."""
    block = min(65536 // element_size, triton.next_power_of_2(group))
    return block, min(max(block // 256, 1), 8)


def rms_norm_gated(x, y, w, z, rstd, group, eps=1e-5):
    """RMSNormGated's call (the gate applied before the norm, no bias); rstd holds one value
    per group and row."""
    M, N = x.shape
    block, warps = rms_norm_gated_config(group, x.element_size())
    layer_norm_gated_kernel[(M, N // group)](x, y, w, z, rstd, rstd, x.stride(0), y.stride(0),
                                             z.stride(0), M, group, eps, BLOCK_N=block,
                                             HAS_Z=True, NORM_BEFORE_GATE=False,
                                             IS_RMS_NORM=True, num_warps=warps)


# mamba_ssm/ops/triton/ssd_bmm.py: _bmm_chunk_fwd_kernel (without seq_idx, not causal, as
# Mamba-2's forward calls it), autotuned over the original's nine configs.
@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k},
                           num_stages=s, num_warps=w)
             for m, n, k, s, w in ((128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4),
                                   (128, 64, 32, 4, 4), (64, 128, 32, 4, 4), (128, 32, 32, 4, 4),
                                   (64, 32, 32, 5, 2), (32, 64, 32, 5, 2), (64, 64, 32, 4, 2))],
    key=["chunk_size", "K"])
@triton.jit
def bmm_chunk_fwd_kernel(a_ptr, b_ptr, out_ptr, seqlen, chunk_size, K, ngroups,
                         stride_a_batch, stride_a_seqlen, stride_a_head, stride_ak,
                         stride_b_batch, stride_b_seqlen, stride_b_head, stride_bk,
                         stride_out_batch, stride_out_chunk, stride_out_head, stride_outm,
                         stride_outn, dot_dtype: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
                         BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    pid_b = tl.program_id(axis=1)
    pid_ch = tl.program_id(axis=2)
    pid_c = pid_ch // ngroups
    pid_h = pid_ch - pid_c * ngroups
    num_pid_n = tl.cdiv(chunk_size, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n
    a_ptr += pid_b * stride_a_batch + pid_c * chunk_size * stride_a_seqlen + pid_h * stride_a_head
    b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen + pid_h * stride_b_head
    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_m[:, None] * stride_a_seqlen + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_n[None, :] * stride_b_seqlen)
    limit = min(chunk_size, seqlen - pid_c * chunk_size)
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < limit) & (offs_k[None, :] < K - k * BLOCK_SIZE_K),
                    other=0.0).to(dot_dtype)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BLOCK_SIZE_K) & (offs_n[None, :] < limit),
                    other=0.0).to(dot_dtype)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    out_ptr += pid_b * stride_out_batch + pid_c * stride_out_chunk + pid_h * stride_out_head
    out_ptrs = out_ptr + (stride_outm * offs_m[:, None] + offs_n[None, :] * stride_outn)
    tl.store(out_ptrs, acc.to(out_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < chunk_size) & (offs_n[None, :] < chunk_size))


def bmm_chunk_fwd(a, b, out, chunk_size):
    """a, b [batch, seqlen, ngroups, K]; out [batch, nchunks, ngroups, chunk, chunk]."""
    batch, seqlen, ngroups, k = a.shape
    nchunks = triton.cdiv(seqlen, chunk_size)
    dot_dtype = tl.bfloat16 if a.dtype == torch.bfloat16 else tl.float16 \
        if a.dtype == torch.float16 else tl.float32
    grid = lambda META: (triton.cdiv(chunk_size, META["BLOCK_SIZE_M"])
                         * triton.cdiv(chunk_size, META["BLOCK_SIZE_N"]), batch,
                         nchunks * ngroups)
    bmm_chunk_fwd_kernel[grid](a, b, out, seqlen, chunk_size, k, ngroups, a.stride(0),
                               a.stride(1), a.stride(2), a.stride(3), b.stride(0), b.stride(1),
                               b.stride(2), b.stride(3), out.stride(0), out.stride(1),
                               out.stride(2), out.stride(3), out.stride(4), dot_dtype)
