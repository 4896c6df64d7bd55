"""Mamba's kernels that bench_ports.cpp times, re-implemented in Triton for
bench/peers/ports.py from the originals at e9594ce1 (github.com/state-spaces/mamba, Apache
License 2.0), with their algorithms, blockings and dtypes, and their host code's choices."""
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
