"""flash-linear-attention's fused recurrence, the kernels bench_ports.cpp times, re-implemented
in Triton for bench/peers/ports.py from the original (github.com/fla-org/flash-linear-attention,
fla/ops/common/fused_recurrent.py at 07815769, MIT licence) with its algorithm and blocking
(BK = BV = min(64, next power of two)). The original autotunes the forward over 4 and 8 warps;
here both sides take 4 (the backward's only config). Only the GLA configuration the benchmark
runs is spelled: the key decay gk, initial and final states, forward time, fixed lengths."""
import triton
import triton.language as tl


@triton.jit
def gla_fwd_kernel(q, k, v, gk, o, h0, ht, scale, B, T, H: tl.constexpr, K: tl.constexpr,
                   V: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr):
    i_v, i_k, i_nh = tl.program_id(0).to(tl.int64), tl.program_id(1).to(tl.int64), \
        tl.program_id(2).to(tl.int64)
    i_n, i_h = i_nh // H, i_nh % H
    all = B * T
    bos = i_n * T
    o_k = i_k * BK + tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    p_q = q + bos * H * K + i_h * K + o_k
    p_k = k + bos * H * K + i_h * K + o_k
    p_v = v + bos * H * V + i_h * V + o_v
    p_o = o + (i_k * all + bos) * H * V + i_h * V + o_v
    p_gk = gk + bos * H * K + i_h * K + o_k
    m_k = o_k < K
    m_v = o_v < V
    m_h = m_k[:, None] & m_v[None, :]
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    b_h += tl.load(h0 + i_nh * K * V + o_k[:, None] * V + o_v[None, :], mask=m_h,
                   other=0).to(tl.float32)
    for _ in range(0, T):
        b_q = tl.load(p_q, mask=m_k, other=0).to(tl.float32) * scale
        b_k = tl.load(p_k, mask=m_k, other=0).to(tl.float32)
        b_v = tl.load(p_v, mask=m_v, other=0).to(tl.float32)
        b_gk = tl.load(p_gk, mask=m_k, other=0).to(tl.float32)
        b_h = b_h * tl.exp(b_gk[:, None])
        b_h += b_k[:, None] * b_v[None, :]
        b_o = tl.sum(b_h * b_q[:, None], axis=0)
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=m_v)
        p_q += H * K
        p_k += H * K
        p_v += H * V
        p_o += H * V
        p_gk += H * K
    tl.store(ht + i_nh * K * V + o_k[:, None] * V + o_v[None, :], b_h.to(ht.dtype.element_ty),
             mask=m_h)


@triton.jit
def gla_bwd_kernel(q, k, v, gk, h0, do, dq, dk, dv, dgk, dht, dh0, scale, B, T,
                   H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BK: tl.constexpr,
                   BV: tl.constexpr):
    i_v, i_k, i_nh = tl.program_id(0).to(tl.int64), tl.program_id(1).to(tl.int64), \
        tl.program_id(2).to(tl.int64)
    i_n, i_h = i_nh // H, i_nh % H
    all = B * T
    bos = i_n * T
    o_k = i_k * BK + tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    m_k = o_k < K
    m_v = o_v < V
    m_h = m_k[:, None] & m_v[None, :]
    p_k = k + bos * H * K + i_h * K + o_k
    p_v = v + bos * H * V + i_h * V + o_v
    p_do = do + bos * H * V + i_h * V + o_v
    p_dq = dq + (i_v * all + bos) * H * K + i_h * K + o_k
    p_gk = gk + bos * H * K + i_h * K + o_k
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    b_h += tl.load(h0 + i_nh * K * V + o_k[:, None] * V + o_v[None, :], mask=m_h,
                   other=0).to(tl.float32)
    for _ in range(0, T):
        b_k = tl.load(p_k, mask=m_k, other=0).to(tl.float32)
        b_v = tl.load(p_v, mask=m_v, other=0).to(tl.float32)
        b_do = tl.load(p_do, mask=m_v, other=0).to(tl.float32)
        b_gk = tl.load(p_gk, mask=m_k, other=0).to(tl.float32)
        b_h = b_h * tl.exp(b_gk[:, None])
        b_h += b_k[:, None] * b_v[None, :]
        b_dq = tl.sum(b_h * b_do[None, :], axis=1) * scale
        tl.store(p_dq, b_dq.to(p_dq.dtype.element_ty), mask=m_k)
        p_k += H * K
        p_v += H * V
        p_do += H * V
        p_dq += H * K
        p_gk += H * K
    tl.debug_barrier()
    p_q = q + (bos + T - 1) * H * K + i_h * K + o_k
    p_k = k + (bos + T - 1) * H * K + i_h * K + o_k
    p_v = v + (bos + T - 1) * H * V + i_h * V + o_v
    p_do = do + (bos + T - 1) * H * V + i_h * V + o_v
    p_dq = dq + (i_v * all + bos + T - 1) * H * K + i_h * K + o_k
    p_dk = dk + (i_v * all + bos + T - 1) * H * K + i_h * K + o_k
    p_dv = dv + (i_k * all + bos + T - 1) * H * V + i_h * V + o_v
    p_gk = gk + (bos + T - 1) * H * K + i_h * K + o_k
    p_dgk = dgk + (i_v * all + bos + T - 1) * H * K + i_h * K + o_k
    b_dh = tl.zeros([BK, BV], dtype=tl.float32)
    b_dh += tl.load(dht + i_nh * K * V + o_k[:, None] * V + o_v[None, :], mask=m_h,
                    other=0).to(tl.float32)
    b_dgk = tl.sum(b_h * b_dh, 1)
    for _ in range(T):
        b_q = tl.load(p_q, mask=m_k, other=0).to(tl.float32)
        b_k = tl.load(p_k, mask=m_k, other=0).to(tl.float32)
        b_v = tl.load(p_v, mask=m_v, other=0).to(tl.float32)
        b_do = tl.load(p_do, mask=m_v, other=0).to(tl.float32)
        b_dh += (b_q * scale)[:, None] * b_do[None, :]
        b_dk = tl.sum(b_dh * b_v[None, :], axis=1)
        b_dv = tl.sum(b_dh * b_k[:, None], axis=0)
        b_gk = tl.load(p_gk, mask=m_k, other=0).to(tl.float32)
        b_dq = tl.load(p_dq, mask=m_k, other=0).to(tl.float32)
        b_dgk += b_q * b_dq - b_k * b_dk
        b_dh *= tl.exp(b_gk)[:, None]
        tl.store(p_dgk, b_dgk.to(p_dgk.dtype.element_ty), mask=m_k)
        tl.store(p_dk, b_dk.to(p_dk.dtype.element_ty), mask=m_k)
        tl.store(p_dv, b_dv.to(p_dv.dtype.element_ty), mask=m_v)
        p_q -= H * K
        p_k -= H * K
        p_v -= H * V
        p_do -= H * V
        p_dq -= H * K
        p_dk -= H * K
        p_dv -= H * V
        p_gk -= H * K
        p_dgk -= H * K
    tl.store(dh0 + i_nh * K * V + o_k[:, None] * V + o_v[None, :], b_dh.to(dh0.dtype.element_ty),
             mask=m_h)


def blocks(K, V):
    return min(triton.next_power_of_2(K), 64), min(triton.next_power_of_2(V), 64)


def gla_fwd(q, k, v, gk, o_parts, h0, ht, scale):
    """q, k, gk [B, T, H, K], v [B, T, H, V]; o_parts [NK, B, T, H, V] float; states float."""
    B, T, H, K = k.shape
    V = v.shape[-1]
    BK, BV = blocks(K, V)
    grid = (triton.cdiv(V, BV), triton.cdiv(K, BK), B * H)
    gla_fwd_kernel[grid](q, k, v, gk, o_parts, h0, ht, scale, B, T, H=H, K=K, V=V, BK=BK, BV=BV,
                         num_warps=4)


def gla_bwd(q, k, v, gk, h0, do, dq, dk, dv, dgk, dht, dh0, scale):
    B, T, H, K = k.shape
    V = v.shape[-1]
    BK, BV = blocks(K, V)
    grid = (triton.cdiv(V, BV), triton.cdiv(K, BK), B * H)
    gla_bwd_kernel[grid](q, k, v, gk, h0, do, dq, dk, dv, dgk, dht, dh0, scale, B, T, H=H, K=K,
                         V=V, BK=BK, BV=BV, num_warps=4)


# fla/ops/utils/cumsum.py at 033b0035: chunk_local_cumsum_vector_kernel and
# chunk_global_cumsum_scalar_kernel, time-major, fixed lengths, no scale (what the benchmark
# runs), one config of the original's autotuning lists each.
@triton.jit
def local_cumsum_vector_kernel(s, o, T, H: tl.constexpr, S: tl.constexpr, BT: tl.constexpr,
                               BS: tl.constexpr):
    i_s, i_t, i_bh = tl.program_id(0), tl.program_id(1).to(tl.int64), tl.program_id(2).to(tl.int64)
    i_b, i_h = i_bh // H, i_bh % H
    bos = i_b * T
    o_t = i_t * BT + tl.arange(0, BT)
    o_s = i_s * BS + tl.arange(0, BS)
    m_s = (o_t[:, None] < T) & (o_s[None, :] < S)
    p_s = s + (bos * H + i_h) * S + o_t[:, None] * (H * S) + o_s[None, :]
    p_o = o + (bos * H + i_h) * S + o_t[:, None] * (H * S) + o_s[None, :]
    b_s = tl.load(p_s, mask=m_s, other=0.0).to(tl.float32)
    b_o = tl.cumsum(b_s, axis=0)
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=m_s)


@triton.jit
def global_cumsum_scalar_kernel(s, o, T, H: tl.constexpr, BT: tl.constexpr):
    i_nh = tl.program_id(0).to(tl.int64)
    i_n, i_h = i_nh // H, i_nh % H
    bos, eos = i_n * T, i_n * T + T
    T = eos - bos
    b_z = tl.zeros([], dtype=tl.float32)
    NT = tl.cdiv(T, BT)
    for i_c in range(NT):
        o_t = i_c * BT + tl.arange(0, BT)
        m_t = o_t < T
        p_s = s + bos * H + i_h + o_t * H
        p_o = o + bos * H + i_h + o_t * H
        b_s = tl.load(p_s, mask=m_t, other=0.0).to(tl.float32)
        b_o = tl.cumsum(b_s, axis=0)
        b_ss = tl.sum(b_s, 0)
        b_o += b_z
        if i_c >= 0:
            b_z += b_ss
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=m_t)


def local_cumsum_vector(s, o, chunk=64, bs=32):
    B, T, H, S = s.shape
    local_cumsum_vector_kernel[(triton.cdiv(S, bs), triton.cdiv(T, chunk), B * H)](
        s, o, T, H=H, S=S, BT=chunk, BS=bs, num_warps=4)


def global_cumsum_scalar(s, o, bt=256):
    B, T, H = s.shape
    global_cumsum_scalar_kernel[(B * H,)](s, o, T, H=H, BT=bt, num_warps=4)
