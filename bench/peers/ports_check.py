"""Small checks of ports.py's Triton kernels (ports_liger.py ... ports_tutorials.py) against
torch, so that a wrong peer is not timed: each kernel at a small odd size, in float32 (bf16
only changes where the kernels round), with blocks smaller than the rows so that the looping
paths run."""
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

import ports_deepseek as deepseek
import ports_fla as fla
import ports_flaggems as flaggems
import ports_liger as liger
import ports_mamba as mamba
import ports_tutorials as tutorials
import ports_unsloth as unsloth
import ports_vllm as vllm


def _rand(*shape, lo=-1.0, hi=1.0):
    return torch.rand(shape, device="cuda") * (hi - lo) + lo


def _close(name, got, want, atol=1e-5, rtol=1e-4):
    got, want = got.float(), want.float()
    if torch.allclose(got, want, atol=atol, rtol=rtol):
        return True
    err = (got - want).abs().max().item()
    print(f"ports.py: {name} disagrees with torch (largest difference {err:.3g})",
          file=sys.stderr)
    return False


def check_liger():
    ok = True
    rows, V = 5, 999
    x = torch.log_softmax(torch.randn(rows, V, device="cuda"), -1)
    y = torch.log_softmax(torch.randn(rows, V, device="cuda"), -1)
    loss, dx = torch.empty_like(x), torch.empty_like(x)
    liger.jsd(x, y, loss, dx, 0.5, 256, 4)
    p, q = y.exp(), x.exp()
    m = 0.5 * p + 0.5 * q
    ok &= _close("jsd loss", loss, (0.5 * p * y + 0.5 * q * x - m * m.log()) / rows, 1e-7)
    ok &= _close("jsd dX", dx, 0.5 * q * (x - m.log()) / rows, 1e-7)

    p, q = torch.softmax(_rand(4, 777), -1), torch.softmax(_rand(4, 777), -1)
    loss, grads = torch.empty(4, device="cuda"), torch.empty_like(p)
    liger.tvd(p, q, loss, grads, 0.25, 256, 4)
    ok &= _close("tvd loss", loss, 0.5 * (p - q).abs().sum(-1) * 0.25, 1e-7)
    ok &= _close("tvd grads", grads, torch.where(p > q, 0.125, -0.125))

    M, N, programs = 7, 999, 3
    x, dy = _rand(M, N, lo=-3, hi=3), _rand(M, N)
    alpha, gamma, beta = torch.tensor([0.7], device="cuda"), _rand(N), _rand(N)
    y, dx = torch.empty_like(x), torch.empty_like(x)
    da = torch.zeros(programs, triton.cdiv(N, 512), device="cuda")
    dg, db = torch.empty(programs, N, device="cuda"), torch.empty(programs, N, device="cuda")
    liger.dyt_fwd(x, y, alpha, gamma, beta, 512, 4, 1)
    liger.dyt_bwd(dy, dx, da, dg, db, x, alpha, gamma, 512, 4, 1)
    t = torch.tanh(0.7 * x)
    inner = (1 - t * t) * dy * gamma
    ok &= _close("dyt y", y, gamma * t + beta)
    ok &= _close("dyt dx", dx, 0.7 * inner)
    ok &= _close("dyt dgamma", dg.sum(0), (dy * t).sum(0))
    ok &= _close("dyt dbeta", db.sum(0), dy.sum(0))
    ok &= _close("dyt dalpha", da.sum(), (x * inner).sum(), 1e-3)

    x, dy = _rand(5, 999, lo=-3, hi=3), _rand(5, 999)
    xs = x.sort(-1, descending=True).values
    k = torch.arange(1, 1000, device="cuda", dtype=x.dtype)
    support = 1 + k * xs > xs.cumsum(-1)
    tau = ((xs * support).sum(-1) - 1) / support.sum(-1)
    o, dx = torch.empty_like(x), torch.empty_like(x)
    liger.sparsemax_fwd(x, tau, o, 256, 4)
    liger.sparsemax_bwd(o, dy, dx, 256, 4)
    ok &= _close("sparsemax out", o, (x - tau[:, None]).clamp(min=0))
    ok &= _close("sparsemax row sums", o.sum(-1), torch.ones(5, device="cuda"), 1e-4)
    on = o > 0
    mean = (dy * on).sum(-1, keepdim=True) / on.sum(-1, keepdim=True)
    ok &= _close("sparsemax dx", dx, torch.where(on, dy - mean, 0.0))

    rows, N, programs = 9, 999, 3
    x, r, w = _rand(rows, N, lo=-2, hi=2), _rand(rows, N), _rand(N)
    y, s, rstd = torch.empty_like(x), torch.empty_like(x), torch.empty(rows, device="cuda")
    liger.fused_add_rms_norm_fwd(y, s, x, r, w, rstd, 1e-6, 1024, 4, 2)
    want_s = (x + r).requires_grad_(True)
    want_rstd = torch.rsqrt(want_s.pow(2).mean(-1) + 1e-6)
    want_y = want_s * want_rstd[:, None] * w
    ok &= _close("fused_add_rms_norm S", s, want_s.detach())
    ok &= _close("fused_add_rms_norm Y", y, want_y.detach())
    ok &= _close("fused_add_rms_norm rstd", rstd, want_rstd.detach())
    dy, ds = _rand(rows, N), _rand(rows, N)
    dx, dw = torch.empty_like(dy), torch.empty(programs, N, device="cuda")
    liger.fused_add_rms_norm_bwd(dy, ds, dx, s, w, rstd, dw, 1024, 4, 2, tl.float32)
    want_y.backward(dy)
    ok &= _close("fused_add_rms_norm dX", dx, want_s.grad + ds, 1e-4)
    ok &= _close("fused_add_rms_norm dW", dw.sum(0), (dy * want_s.detach() * want_rstd.detach()
                                                       [:, None]).sum(0), 1e-4)
    return ok


def check_unsloth():
    ok = True
    rows, N = 9, 999
    x, w = _rand(rows, N, lo=-2, hi=2).requires_grad_(True), _rand(N)
    y, r = torch.empty_like(x), torch.empty(rows, device="cuda")
    unsloth.rms_layernorm_fwd(y, x.detach(), w, r, 1e-6, 1024, 4)
    want = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    ok &= _close("unsloth rms_layernorm Y", y, want.detach())
    dy = _rand(rows, N)
    want.backward(dy)
    unsloth.rms_layernorm_bwd(dy, x.detach(), w, r, 1024, 4)  # dX over dY
    ok &= _close("unsloth rms_layernorm dX", dy, x.grad, 1e-4)

    n = 3001
    for exact in (True, False):
        form = "exact" if exact else "approx"
        e, g = _rand(n, lo=-4, hi=4).requires_grad_(True), _rand(n, lo=-2, hi=2)
        g.requires_grad_(True)
        h = torch.empty(n, device="cuda")
        unsloth.geglu_fwd(e.detach(), g.detach(), h, exact)
        want = F.gelu(e, approximate="none" if exact else "tanh") * g
        ok &= _close(f"unsloth geglu {form} h", h, want.detach())
        dw = _rand(n)
        want.backward(dw)
        bw, be, bg = dw.clone(), e.detach().clone(), g.detach().clone()
        unsloth.geglu_bwd(bw, be, bg, exact)
        ok &= _close(f"unsloth geglu {form} h (bwd)", bw, want.detach())
        ok &= _close(f"unsloth geglu {form} d(up)", be, g.grad)
        ok &= _close(f"unsloth geglu {form} d(gate)", bg, e.grad, 1e-4)

    rows, V = 6, 999
    logits = _rand(rows, V, lo=-8, hi=8)
    labels = torch.tensor([0, 998, -100, 600, 512, 3], device="cuda")
    loss, lse = torch.empty(rows, device="cuda"), torch.empty(rows, device="cuda")
    unsloth.cross_entropy_fwd(logits, loss, lse, labels, 1024, 4)
    ok &= _close("unsloth cross_entropy loss", loss,
                 F.cross_entropy(logits, labels, reduction="none"))
    ok &= _close("unsloth cross_entropy logsumexp", lse, logits.logsumexp(-1))
    capped = (7.5 * torch.tanh(logits / 7.5))
    chunks = triton.cdiv(V, 256)
    part = torch.empty(rows, chunks, device="cuda")
    unsloth.chunked_cross_entropy_fwd(logits, loss, part, labels, 256, 4, softcap=7.5)
    total = torch.where(labels == -100, 0.0, loss + part.logsumexp(-1))
    ok &= _close("unsloth chunked cross_entropy loss", total,
                 F.cross_entropy(capped, labels, reduction="none"))
    x = logits.clone().requires_grad_(True)
    dloss = _rand(rows, lo=0.5, hi=1.5)
    F.cross_entropy(7.5 * torch.tanh(x / 7.5), labels, reduction="none").backward(dloss)
    grad = logits.clone()
    unsloth.cross_entropy_bwd(grad, dloss, capped.logsumexp(-1), labels, 256, 4, softcap=7.5)
    ok &= _close("unsloth cross_entropy dlogits", grad, x.grad, 1e-6)
    return ok


def check_flaggems(sms):
    ok = True
    M, N = 37, 999
    x = _rand(M, N, lo=-4, hi=4)
    for tile in (1024, 256):  # one tile per row; swept twice
        y = torch.empty_like(x)
        flaggems.softmax_fwd(y, x, tile, 4)
        ok &= _close(f"softmax TILE_N={tile}", y, torch.softmax(x, -1), 1e-7)
    y, dy = torch.softmax(x, -1), _rand(M, N)
    dx = torch.empty_like(y)
    flaggems.softmax_bwd(y, dy, dx, 4, 256, 4)
    ok &= _close("softmax backward", dx, y * (dy - (y * dy).sum(-1, keepdim=True)), 1e-7)

    x = _rand(M, N, lo=-3, hi=5)
    var, mean = torch.empty(M, device="cuda"), torch.empty(M, device="cuda")
    flaggems.var_mean_rows(x, var, mean, 4, 256, 4)
    want_var, want_mean = torch.var_mean(x, dim=1)
    ok &= _close("var_mean dim=1 var", var, want_var) & _close("var_mean dim=1 mean", mean,
                                                               want_mean)
    flat = _rand(10007, lo=-1, hi=3)
    blocks = triton.cdiv(flat.numel(), 1024)
    acc, avg, count = (torch.empty(blocks, device="cuda") for _ in range(3))
    flaggems.var_mean_all(flat, acc, avg, count, var, mean)
    want_var, want_mean = torch.var_mean(flat)
    ok &= _close("var_mean all var", var[0], want_var, 1e-4) & _close("var_mean all mean",
                                                                      mean[0], want_mean)

    out = torch.empty(M, device="cuda")
    flaggems.l2_norm_rows(x, out, 4, 256, 4)
    ok &= _close("vector_norm dim=1", out, torch.linalg.vector_norm(x, dim=1))
    mid = torch.empty(flaggems.l2_norm_all_sizes(flat.numel())[1], device="cuda")
    flaggems.l2_norm_all(flat, mid, out)
    ok &= _close("vector_norm all", out[0], torch.linalg.vector_norm(flat))

    for rows, cols in ((5, 999), (3, 20001)):  # one tile per row; reduce-then-scan
        x = _rand(rows, cols)
        y = torch.empty_like(x)
        flaggems.cumsum_rows(x, y, sms)
        ok &= _close(f"cumsum rows of {cols}", y, torch.cumsum(x, 1), 1e-3)
    x = _rand(3, 5001, 7)
    y = torch.empty_like(x)
    _, parts = flaggems.cumsum_column_parts(5001)
    partials = [torch.empty(3, parts, 7, device="cuda"), torch.empty(3, 1, 7, device="cuda")]
    flaggems.cumsum_columns(x, y, partials)
    ok &= _close("cumsum columns", y, torch.cumsum(x, 1), 1e-3)

    for rows, cols, tile in ((29, 777, 1024), (7, 5000, 1024)):  # persistent; Welford loop
        x, w, b = _rand(rows, cols, lo=-3, hi=5), _rand(cols), _rand(cols)
        y = torch.empty_like(x)
        mean, rstd = torch.empty(rows, device="cuda"), torch.empty(rows, device="cuda")
        flaggems.layer_norm(x, y, w, b, mean, rstd, 1e-5, tile, 4)
        want_var, want_mean = torch.var_mean(x, dim=1, correction=0)
        ok &= _close(f"layer_norm {cols} y", y, F.layer_norm(x, (cols,), w, b, 1e-5), 1e-4)
        ok &= _close(f"layer_norm {cols} mean", mean, want_mean)
        ok &= _close(f"layer_norm {cols} rstd", rstd, torch.rsqrt(want_var + 1e-5))

    v = _rand(37, 299)
    for dim, block_rows, block_cols in ((0, 4, 128), (1, 64, 4)):
        g = _rand(v.shape[dim], lo=0.5, hi=2)
        out, norm = torch.empty_like(v), torch.empty(v.shape[dim], device="cuda")
        flaggems.weight_norm(out, norm, v, g, dim, block_rows, block_cols, 4)
        want_norm = torch.linalg.vector_norm(v, dim=1 - dim)
        ok &= _close(f"weight_norm dim={dim} norm", norm, want_norm)
        shape = (-1, 1) if dim == 0 else (1, -1)
        ok &= _close(f"weight_norm dim={dim} out", out,
                     v / want_norm.view(shape) * g.view(shape))
    return ok


def check_mamba():
    ok = True
    batch, nheads, dim, dstate, ngroups = 3, 4, 50, 13, 2
    state = _rand(batch, nheads, dim, dstate)
    x = _rand(batch, nheads, dim)
    dt0, dtb0 = _rand(batch, nheads, lo=-3, hi=1), _rand(nheads, lo=-0.5, hi=0.5)
    A0, D0 = _rand(nheads, lo=-2, hi=-0.1), _rand(nheads)
    B, C = _rand(batch, ngroups, dstate), _rand(batch, ngroups, dstate)
    out = torch.empty_like(x)
    want_state = state.clone()
    mamba.selective_state_update(state, x, dt0[:, :, None].expand(batch, nheads, dim),
                             A0[:, None, None].expand(nheads, dim, dstate), B, C,
                             D0[:, None].expand(nheads, dim),
                             dtb0[:, None].expand(nheads, dim), out)
    dt = F.softplus(dt0 + dtb0)[:, :, None, None]  # all below softplus' threshold of 20
    heads_b = B.repeat_interleave(nheads // ngroups, 1)[:, :, None, :]
    heads_c = C.repeat_interleave(nheads // ngroups, 1)[:, :, None, :]
    want_state = want_state * torch.exp(A0[None, :, None, None] * dt) + heads_b * dt * x[..., None]
    ok &= _close("selective_state_update state", state, want_state)
    ok &= _close("selective_state_update out", out,
                 (want_state * heads_c).sum(-1) + x * D0[None, :, None], 1e-4)

    M, group, groups = 7, 300, 2
    x, z, w = _rand(M, group * groups, lo=-2, hi=3), _rand(M, group * groups, lo=-2, hi=2), \
        _rand(group * groups)
    y, rstd = torch.empty_like(x), torch.empty(groups * M, device="cuda")
    mamba.rms_norm_gated(x, y, w, z, rstd, group)
    gated = (x * F.silu(z)).view(M, groups, group)
    want_rstd = torch.rsqrt(gated.pow(2).mean(-1) + 1e-5)
    ok &= _close("layernorm_gated y", y, (gated * want_rstd[..., None]).view(M, -1) * w)
    ok &= _close("layernorm_gated rstd", rstd, want_rstd.t().reshape(-1))
    return ok


def check_ssd_bmm():
    """SSD's per-chunk C B^T against torch at 2 x 300 positions, chunks of 128, 2 groups."""
    batch, seqlen, chunk, groups, K = 2, 300, 128, 2, 40
    a, b = _rand(batch, seqlen, groups, K), _rand(batch, seqlen, groups, K)
    nchunks = triton.cdiv(seqlen, chunk)
    out = torch.empty(batch, nchunks, groups, chunk, chunk, device="cuda")
    mamba.bmm_chunk_fwd(a, b, out, chunk)
    pad = nchunks * chunk - seqlen
    ap = F.pad(a, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, chunk, groups, K)
    bp = F.pad(b, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, chunk, groups, K)
    want = torch.einsum("bcmgk,bcngk->bcgmn", ap, bp)
    return _close("ssd_bmm", out, want, 5e-3, 1e-3)  # tf32


def check_tutorials():
    n = 3001
    x = _rand(n, lo=-2, hi=2)
    keep = torch.randint(0, 2, (n,), device="cuda", dtype=torch.int32)
    out, y = torch.empty_like(x), torch.empty_like(x)
    tutorials.dropout(x, keep, out, 0.3)
    tutorials.asin(x.clamp(-1, 1), y)
    return (_close("dropout", out, torch.where(keep != 0, x / 0.7, 0.0), 1e-6, 1e-6)
            & _close("asin", y, torch.asin(x.clamp(-1, 1)), 1e-6, 1e-6))


def check_deepseek():
    """The quantizers against torch (scales exactly max|x| / 448), the GEMM against float64
    sums of the dequantized operands, at sizes that are not multiples of the blocks."""
    ok = True
    x = _rand(5, 384, lo=-3, hi=3).to(torch.bfloat16)
    y = torch.empty(5, 384, device="cuda", dtype=torch.float8_e4m3fn)
    s = torch.empty(5 * 3, device="cuda")
    deepseek.act_quant(x, y, s)
    want_s = x.float().view(-1, 128).abs().amax(-1) / 448
    ok &= _close("act_quant scales", s, want_s, 0, 0)
    ok &= _close("act_quant values", y.float(),
                 (x.float().view(-1, 128) / want_s[:, None]).view(5, 384), 2e-3, 1 / 16)
    w = _rand(200, 300, lo=-0.5, hi=0.5).to(torch.bfloat16)
    q = torch.empty(200, 300, device="cuda", dtype=torch.float8_e4m3fn)
    ws = torch.empty(2, 3, device="cuda")
    deepseek.weight_quant(w, q, ws)
    back = torch.empty_like(w)
    deepseek.weight_dequant(q, ws, back)
    padded = torch.zeros(256, 384, device="cuda")
    padded[:200, :300] = w.float().abs()
    ok &= _close("weight_quant scales", ws, padded.view(2, 128, 3, 128).amax((1, 3)) / 448, 0, 0)
    ok &= _close("weight_dequant", back, w, 1e-3, 1 / 8)
    M, N, K = 77, 200, 320
    a = _rand(M, K, lo=-2, hi=2).to(torch.float8_e4m3fn)
    b = _rand(N, K, lo=-2, hi=2).to(torch.float8_e4m3fn)
    a_s, b_s = _rand(M, 3, lo=0.5, hi=2), _rand(2, 3, lo=0.5, hi=2)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    deepseek.fp8_gemm(a, a_s, b, b_s, c)
    ok &= _close("fp8_gemm", c, deepseek.reference_gemm(a, a_s, b, b_s), 1e-2, 1 / 64)
    return ok


def check_vllm():
    """Decode attention (MHA with a logit cap, GQA, MLA) against torch's softmax(q k^T) v per
    sequence, through pages in reverse order; sequences of 1, 77 and 200 tokens, 4 splits."""
    ok = True
    lens_list, splits, page = [1, 77, 200], 4, 16
    for kind, H, H_KV, Lk, Lv, cap in (("mha", 4, 4, 96, 80, 1.5), ("gqa", 8, 2, 64, 64, 0.0),
                                        ("mla", 16, 1, 576, 512, 0.0)):
        batch, per_seq = len(lens_list), triton.cdiv(200, page)
        slots = batch * per_seq * page
        # MLA in bf16, as vLLM runs it (its float tiles would need more shared memory)
        dtype = torch.bfloat16 if kind == "mla" else torch.float32
        q = _rand(batch, H, Lk).to(dtype)
        k = _rand(slots, H_KV, Lk).to(dtype)
        v = k[..., :Lv] if kind == "mla" else _rand(slots, H_KV, Lv).to(dtype)
        table = torch.arange(batch * per_seq - 1, -1, -1, device="cuda",
                             dtype=torch.int32).view(batch, per_seq)
        lens = torch.tensor(lens_list, device="cuda", dtype=torch.int32)
        mid = torch.empty(batch, H, splits, Lv + 1, device="cuda")
        o = torch.empty(batch, H, Lv, device="cuda")
        scale = Lk ** -0.5
        vllm.decode_attention(q, k, v, o, table, lens, mid, splits, scale, page, cap)
        want = torch.empty_like(o)
        for b, n in enumerate(lens_list):
            slot = (table[b].repeat_interleave(page) * page
                    + torch.arange(per_seq * page, device="cuda") % page)[:n].long()
            kb = k[slot].float().repeat_interleave(H // H_KV, 1)  # [n, H, Lk]
            vb = v[slot].float().repeat_interleave(H // H_KV, 1)
            s = torch.einsum("hd,nhd->hn", q[b].float(), kb) * scale
            if cap > 0:
                s = cap * torch.tanh(s / cap)
            want[b] = torch.einsum("hn,nhd->hd", torch.softmax(s, -1), vb)
        # tl.dot of float32 tiles multiplies in tf32; MLA's p is rounded to bf16 for p v
        tol = 2e-2 if kind == "mla" else 2e-3
        ok &= _close(f"decode_attention {kind}", o, want, tol, 1e-2)
    return ok


def check_qwen2vl_mrope():
    """M-RoPE against the rotation in torch: 2 x 5 tokens, 6 and 2 heads of 40, sections 6,
    7, 7."""
    bs, sl, n_qh, n_kh, hd, sec = 2, 5, 6, 2, 40, (6, 7, 7)
    q, k = _rand(bs, sl, n_qh, hd), _rand(bs, sl, n_kh, hd)
    cos, sin = _rand(3, bs, sl, hd), _rand(3, bs, sl, hd)
    want = []
    for x in (q, k):
        half = hd // 2
        pick = torch.cat([torch.full((n,), i, device="cuda", dtype=torch.long)
                          for i, n in enumerate(sec)])
        c = cos[pick, :, :, torch.arange(half, device="cuda")].permute(1, 2, 0)[:, :, None]
        s = sin[pick, :, :, torch.arange(half, device="cuda")].permute(1, 2, 0)[:, :, None]
        x1, x2 = x[..., :half], x[..., half:]
        want.append(torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], -1))
    liger.qwen2vl_mrope(q, k, cos, sin, sec)
    return _close("qwen2vl_mrope q", q, want[0], 1e-6, 1e-5) & \
        _close("qwen2vl_mrope k", k, want[1], 1e-6, 1e-5)


def check_merge_attn_states():
    """vLLM's merge against a weighted sum, with +inf (taken as -inf) and -inf lse values."""
    tokens, heads, D = 7, 3, 80
    p_out, s_out = _rand(tokens, heads, D), _rand(tokens, heads, D)
    p_lse, s_lse = _rand(heads, tokens, lo=-3, hi=3), _rand(heads, tokens, lo=-3, hi=3)
    p_lse[0, 1] = float("inf")
    s_lse[0, 2] = float("-inf")
    out, out_lse = torch.empty_like(p_out), torch.empty_like(p_lse)
    vllm.merge_attn_states(out, p_out, p_lse, s_out, s_lse, out_lse)
    p = torch.where(p_lse == float("inf"), float("-inf"), p_lse)
    m = torch.maximum(p, s_lse)
    wp, ws = torch.exp(p - m), torch.exp(s_lse - m)
    se = wp + ws
    want = p_out * (wp / se).t()[..., None] + s_out * (ws / se).t()[..., None]
    return (_close("merge_attn_states out", out, want, 1e-6, 1e-5)
            & _close("merge_attn_states lse", out_lse, torch.log(se) + m, 1e-5, 1e-5))


def check_fp8_group_quant():
    """vLLM's group quantization against torch: scales (plain and e8m0), values within e4m3's
    rounding, the fused silu-and-multiply with column-major scales."""
    ok = True
    x = _rand(6, 384, lo=-20, hi=20).to(torch.bfloat16)
    for ue8m0 in (False, True):
        q = torch.empty(6, 384, device="cuda", dtype=torch.float8_e4m3fn)
        s = torch.empty(18, device="cuda")
        vllm.per_token_group_quant_fp8(x, q, s, 128, ue8m0)
        raw = x.float().view(18, 128).abs().amax(-1).clamp(min=1e-10) / 448.0
        want = torch.exp2(torch.ceil(torch.log2(raw))) if ue8m0 else raw
        ok &= _close(f"fp8_group_quant scales ue8m0={ue8m0}", s, want, 0, 1e-6)
        back = q.float().view(18, 128) * s[:, None]
        ok &= _close(f"fp8_group_quant values ue8m0={ue8m0}", back, x.float().view(18, 128),
                     1e-2, 1 / 16)
    gate_up = _rand(16, 512, lo=-6, hi=6).to(torch.bfloat16)
    q = torch.empty(16, 256, device="cuda", dtype=torch.float8_e4m3fn)
    s_t = torch.empty(2, 16, device="cuda")
    vllm.silu_mul_group_quant_colmajor(gate_up, q, s_t, False)
    a, b = gate_up[:, :256].float(), gate_up[:, 256:]
    y = (torch.nn.functional.silu(a).to(torch.bfloat16) * b).float().view(16, 2, 128)
    want = y.abs().amax(-1).clamp(min=1e-10) / 448.0
    ok &= _close("silu_mul_fp8_group_quant scales", s_t.t(), want, 0, 1e-2)
    back = q.float().view(16, 2, 128) * s_t.t()[..., None]
    ok &= _close("silu_mul_fp8_group_quant values", back, y, 1e-2, 1 / 16)
    return ok


def check_fla():
    """GLA's recurrence against a torch loop: o and the final state; dq, dk, dv and dh0 through
    autograd of that loop; at K = 50, V = 40 (blocks of 64, masked), 2 x 9 tokens, 3 heads."""
    B, T, H, K, V = 2, 9, 3, 50, 40
    q, k, v = _rand(B, T, H, K), _rand(B, T, H, K), _rand(B, T, H, V)
    gk, do = _rand(B, T, H, K, lo=-0.3, hi=0.0), _rand(B, T, H, V)
    h0, dht = _rand(B, H, K, V), _rand(B, H, K, V)
    scale = 0.3
    o = torch.empty(1, B, T, H, V, device="cuda")
    ht = torch.empty(B, H, K, V, device="cuda")
    fla.gla_fwd(q, k, v, gk, o, h0, ht, scale)
    leaves = [x.clone().requires_grad_() for x in (q, k, v, h0)]
    lq, lk, lv, lh0 = leaves
    S, outs = lh0, []
    for t in range(T):
        S = S * torch.exp(gk[:, t])[..., None] + lk[:, t, :, :, None] * lv[:, t, :, None, :]
        outs.append((S * (lq[:, t] * scale)[..., None]).sum(-2))
    want_o = torch.stack(outs, 1)
    ok = _close("fla fwd o", o[0], want_o.detach(), 1e-4, 1e-4)
    ok &= _close("fla fwd ht", ht, S.detach(), 1e-4, 1e-4)
    (want_o * do).sum().add_((S * dht).sum()).backward()
    dq, dk = torch.empty(1, B, T, H, K, device="cuda"), torch.empty(1, B, T, H, K, device="cuda")
    dv, dgk = torch.empty(1, B, T, H, V, device="cuda"), torch.empty(1, B, T, H, K, device="cuda")
    dh0 = torch.empty(B, H, K, V, device="cuda")
    fla.gla_bwd(q, k, v, gk, h0, do, dq, dk, dv, dgk, dht, dh0, scale)
    for name, got, leaf in (("dq", dq[0], lq), ("dk", dk[0], lk), ("dv", dv[0], lv),
                            ("dh0", dh0, lh0)):
        ok &= _close(f"fla bwd {name}", got, leaf.grad, 1e-4, 1e-3)
    s, s1 = _rand(2, 150, 3, 40), _rand(2, 150, 3)
    o, o1 = torch.empty_like(s), torch.empty_like(s1)
    fla.local_cumsum_vector(s, o)
    fla.global_cumsum_scalar(s1, o1)
    pad = torch.nn.functional.pad(s, (0, 0, 0, 0, 0, 192 - 150)).view(2, 3, 64, 3, 40)
    want = pad.cumsum(2).view(2, 192, 3, 40)[:, :150]
    ok &= _close("fla local cumsum", o, want, 1e-5, 1e-5)
    ok &= _close("fla global cumsum", o1, s1.cumsum(1), 1e-5, 1e-5)
    return ok


def check():
    torch.manual_seed(0)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    ok = True
    for part in (check_liger, check_unsloth, lambda: check_flaggems(sms), check_mamba,
                 check_deepseek, check_vllm, check_merge_attn_states, check_fp8_group_quant,
                 check_qwen2vl_mrope, check_fla,
                 check_ssd_bmm, check_tutorials):
        ok &= part()
    if not ok:
        print("ports.py: a peer kernel disagrees with torch", file=sys.stderr)
    return ok
