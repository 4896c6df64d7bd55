"""FlagGems' kernels that bench_ports.cpp times, re-implemented in Triton for
bench/peers/ports.py from the originals at 532ff438 (github.com/FlagOpen/FlagGems, Apache
License 2.0), with their algorithms, blockings and dtypes. The launchers take torch tensors and
the config; where FlagGems autotunes, the config is the caller's. Program ids are int64, as
FlagGems' triton_lang_extension makes them; masks are combined with `&` where the originals
write `and`, which Triton 3.6 deprecates on tensors."""
import math

import triton
import triton.language as tl


@triton.jit
def _prev_multiple_of(a, b):  # the start of the last (partial or full) tile
    return tl.cdiv(a, b) * b - b


# src/flag_gems/ops/softmax.py: softmax_kernel_inner, softmax_backward_kernel_inner.
@triton.jit
def softmax_inner_kernel(Out, In, M, N, TILE_N: tl.constexpr, ONE_TILE_PER_CTA: tl.constexpr):
    pid_m = tl.program_id(0).to(tl.int64)
    if ONE_TILE_PER_CTA:
        offs = pid_m * N + tl.arange(0, TILE_N)
        mask = tl.arange(0, TILE_N) < N
        x = tl.load(In + offs, mask=mask, other=-float("inf")).to(Out.dtype.element_ty)
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(Out + offs, e / tl.sum(e, axis=0), mask=mask)
    else:
        m = tl.full([TILE_N], value=float("-inf"), dtype=tl.float32)
        z = tl.full([TILE_N], value=0.0, dtype=tl.float32)
        In += pid_m * N
        Out += pid_m * N
        last = _prev_multiple_of(N, TILE_N)
        for start in range(0, last, TILE_N):  # full tiles, unmasked
            x = tl.load(In + start + tl.arange(0, TILE_N))
            m_new = tl.maximum(m, x)
            z = tl.where(m_new == float("-inf"), z, z * tl.exp(m - m_new) + tl.exp(x - m_new))
            m = m_new
        for start in range(last, N, TILE_N):
            offs = start + tl.arange(0, TILE_N)
            x = tl.load(In + offs, mask=offs < N, other=-float("inf"))
            m_new = tl.maximum(m, x)
            z = tl.where(m_new == float("-inf"), z, z * tl.exp(m - m_new) + tl.exp(x - m_new))
            m = m_new
        m_row = tl.max(m, 0)
        z_row = tl.sum(z * tl.exp(m - m_row))
        for start in range(0, TILE_N, TILE_N):  # backwards: the masked last tile first
            offs = (last - start) + tl.arange(0, TILE_N)
            mask = offs < N
            x = tl.load(In + offs, mask=mask, other=-float("inf"), eviction_policy="evict_first")
            tl.store(Out + offs, tl.exp(x - m_row) / z_row, mask=mask)
        for start in range(TILE_N, N, TILE_N):
            offs = (last - start) + tl.arange(0, TILE_N)
            x = tl.load(In + offs, eviction_policy="evict_first")
            tl.store(Out + offs, tl.exp(x - m_row) / z_row)


@triton.jit
def softmax_backward_inner_kernel(Out, dOut, dIn, M, N, TILE_M: tl.constexpr,
                                  TILE_N: tl.constexpr, ONE_TILE_PER_CTA: tl.constexpr):
    pid_m = tl.program_id(0).to(tl.int64)
    rows = pid_m * TILE_M + tl.arange(0, TILE_M)
    if ONE_TILE_PER_CTA:
        cols = tl.arange(0, TILE_N)
        offs = rows[:, None] * N + cols
        mask = (rows[:, None] < M) & (cols < N)
        y = tl.load(Out + offs, mask=mask).to(tl.float32)
        dy = tl.load(dOut + offs, mask=mask).to(tl.float32)
        total = tl.sum(y * dy, 1)
        tl.store(dIn + offs, y * (dy - total[:, None]), mask=mask)
    else:
        acc = tl.zeros([TILE_M, TILE_N], dtype=tl.float32)
        cols = tl.arange(0, TILE_N)
        offs = rows[:, None] * N + cols
        for _ in range(0, N, TILE_N):
            mask = (rows[:, None] < M) & (cols < N)
            y = tl.load(Out + offs, mask=mask, eviction_policy="evict_last").to(tl.float32)
            dy = tl.load(dOut + offs, mask=mask).to(tl.float32)
            acc += y * dy
            cols += TILE_N
            offs += TILE_N
        total = tl.sum(acc, 1)
        cols = tl.arange(0, TILE_N)
        offs = rows[:, None] * N + cols
        for _ in range(0, N, TILE_N):
            mask = (rows[:, None] < M) & (cols < N)
            y = tl.load(Out + offs, mask=mask, eviction_policy="evict_first").to(tl.float32)
            dy = tl.load(dOut + offs, mask=mask).to(tl.float32)
            tl.store(dIn + offs, y * (dy - total[:, None]), mask=mask)
            cols += TILE_N
            offs += TILE_N


def softmax_fwd(out, x, tile, warps):
    M, N = x.shape
    softmax_inner_kernel[(M, 1, 1)](out, x, M, N, TILE_N=tile, ONE_TILE_PER_CTA=tile >= N,
                                    num_warps=warps)


def softmax_bwd(y, dy, dx, tile_m, tile_n, warps):
    M, N = y.shape
    softmax_backward_inner_kernel[(triton.cdiv(M, tile_m), 1, 1)](
        y, dy, dx, M, N, TILE_M=tile_m, TILE_N=tile_n, ONE_TILE_PER_CTA=tile_n >= N,
        num_warps=warps)


# src/flag_gems/ops/var_mean.py: welford_func, var_mean_welford_kernel, var_mean_kernel_1,
# var_mean_kernel_2.
@triton.jit
def _welford_merge(mean_a, count_a, m2_a, mean_b, count_b, m2_b):
    count = count_a + count_b
    mean = (mean_a * count_a + mean_b * count_b) / tl.maximum(count, 1)
    m2 = m2_a + mean_a * count_a * mean_a + m2_b + mean_b * count_b * mean_b - count * mean * mean
    return mean, count, m2


@triton.jit
def var_mean_welford_kernel(X, Var, Mean, M, N, correction, BLOCK_M: tl.constexpr,
                            BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    X += rows * N
    row_mask = rows < M
    mean = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    m2 = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    count = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)[None, :]
        mask = row_mask & (cols < N)
        x = tl.load(X + cols, mask, other=0.0).to(tl.float32)
        new_count = count + mask
        new_mean = (mean * count + x) / tl.maximum(new_count, 1)
        m2 += (x - new_mean) * (x - mean) * mask
        mean = new_mean
        count = new_count
    mean, _, m2 = tl.reduce((mean, count, m2), axis=1, combine_fn=_welford_merge)
    tl.store(Mean + rows, mean[:, None], row_mask)
    tl.store(Var + rows, (m2 / (N - correction))[:, None], row_mask)


@triton.jit
def var_mean_kernel_1(X, Acc, Average, Count, N, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = offs < N
    x = tl.load(X + offs, mask, other=0.0).to(tl.float32)
    count = tl.sum(mask.to(tl.float32))
    average = tl.sum(x) / count
    tl.store(Average + pid, average)
    tl.store(Acc + pid, tl.sum(x * x) - count * average * average)
    tl.store(Count + pid, count)


@triton.jit(do_not_specialize=["correction"])
def var_mean_kernel_2(Acc, Average, Count, Var, Mean, N, correction, BLOCK_NUM,
                      BLOCK_N: tl.constexpr):
    offs = tl.arange(0, BLOCK_N)
    mask = offs < BLOCK_NUM
    m2 = tl.load(Acc + offs, mask, other=0.0).to(tl.float32)
    average = tl.load(Average + offs, mask, other=0.0).to(tl.float32)
    count = tl.load(Count + offs, mask, other=0.0).to(tl.float32)
    mean, _, m2 = tl.reduce((average, count, m2), axis=0, combine_fn=_welford_merge)
    tl.store(Mean, mean)
    tl.store(Var, m2 / (N - correction))


def var_mean_rows(x, var, mean, block_m, block_n, warps):
    M, N = x.shape
    var_mean_welford_kernel[(triton.cdiv(M, block_m),)](x, var, mean, M, N, 1.0,
                                                        BLOCK_M=block_m, BLOCK_N=block_n,
                                                        num_warps=warps)


def var_mean_all(x, acc, average, count, var, mean):
    """FlagGems' host code for the whole tensor: 1024-element blocks (acc, average and count
    hold cdiv(n, 1024) each), then one program over them."""
    n = x.numel()
    blocks = triton.cdiv(n, 1024)
    var_mean_kernel_1[(blocks,)](x, acc, average, count, n, BLOCK_N=1024)
    var_mean_kernel_2[(1,)](acc, average, count, var, mean, n, 1.0, blocks,
                            BLOCK_N=triton.next_power_of_2(blocks))


# src/flag_gems/ops/vector_norm.py: l2_norm_kernel, l2_norm_kernel_1, l2_norm_kernel_2.
@triton.jit
def l2_norm_kernel(X, Out, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    X += rows * N
    row_mask = rows < M
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)[None, :]
        a = tl.load(X + cols, row_mask & (cols < N), other=0.0).to(tl.float32)
        acc += a * a
    tl.store(Out + rows, tl.sqrt(tl.sum(acc, axis=1))[:, None], row_mask)


@triton.jit
def l2_norm_kernel_1(X, Mid, M, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(X + offs, offs < M, other=0.0).to(tl.float32)
    tl.store(Mid + pid, tl.sum(x * x))


@triton.jit
def l2_norm_kernel_2(Mid, Out, MID_SIZE, BLOCK_MID: tl.constexpr):
    offs = tl.arange(0, BLOCK_MID)
    mid = tl.load(Mid + offs, offs < MID_SIZE, other=0.0).to(tl.float32)
    tl.store(Out, tl.sqrt(tl.sum(mid)))


def l2_norm_rows(x, out, block_m, block_n, warps):
    M, N = x.shape
    l2_norm_kernel[(triton.cdiv(M, block_m),)](x, out, M, N, BLOCK_M=block_m, BLOCK_N=block_n,
                                               num_warps=warps)


def l2_norm_all_sizes(n):
    """FlagGems' host code for the whole tensor: blocks of next_power_of_2(ceil(sqrt(n))),
    their count, and that count rounded up to a power of two."""
    block = triton.next_power_of_2(math.ceil(math.sqrt(n)))
    mid = triton.cdiv(n, block)
    return block, mid, triton.next_power_of_2(mid)


def l2_norm_all(x, mid, out):
    """`mid` holds l2_norm_all_sizes(x.numel())[1] elements."""
    n = x.numel()
    block, mid_size, block_mid = l2_norm_all_sizes(n)
    l2_norm_kernel_1[(mid_size,)](x, mid, n, block)
    l2_norm_kernel_2[(1,)](mid, out, mid_size, block_mid)


# src/flag_gems/ops/cumsum.py: reduce_then_scan_{block_sum,root_scan,block_scan}_kernel_row,
# scan_part_sum_abc_kernel, add_base_sum_abc_kernel, for float inputs (the scan type is the
# input's, the accumulator float).
@triton.jit
def scan_block_sum_kernel(In, BlockSum, N, tiles_per_cta, TILE_SIZE: tl.constexpr):
    pid_m = tl.program_id(0).to(tl.int64)
    pid_n = tl.program_id(1).to(tl.int64)
    start = pid_n * (tiles_per_cta * TILE_SIZE)
    end = min(start + tiles_per_cta * TILE_SIZE, N)
    acc = tl.zeros((TILE_SIZE,), dtype=tl.float32)
    for tile in range(start, end, TILE_SIZE):
        offs = tile + tl.arange(0, TILE_SIZE)
        acc += tl.load(In + pid_m * N + offs, mask=offs < N).to(tl.float32)
    tl.store(BlockSum + pid_m * tl.num_programs(1) + pid_n, tl.sum(acc, 0), cache_modifier=".cg")


@triton.jit
def scan_root_kernel(In, Out, N, TILE_SIZE: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, TILE_SIZE)
    mask = offs < N
    x = tl.load(In + pid * N + offs, mask=mask, other=0).to(tl.float32)
    tl.store(Out + pid * N + offs, tl.cumsum(x, 0), mask=mask)


@triton.jit
def scan_block_scan_kernel(In, Prefix, Out, N, num_tiles_n, tiles_per_cta,
                           TILE_SIZE: tl.constexpr):
    pid_m = tl.program_id(0).to(tl.int64)
    pid_n = tl.program_id(1).to(tl.int64)
    start = pid_n * (tiles_per_cta * TILE_SIZE)
    end = min(start + tiles_per_cta * TILE_SIZE, N)
    prefix = tl.load(Prefix + pid_m * num_tiles_n + pid_n - 1, mask=pid_n > 0,
                     other=0).to(tl.float32)
    for tile in range(start, end, TILE_SIZE):
        offs = tile + tl.arange(0, TILE_SIZE)
        mask = offs < N
        x = tl.load(In + pid_m * N + offs, mask=mask).to(tl.float32)
        scanned = prefix + tl.cumsum(x, 0)
        prefix += tl.sum(x, 0)
        tl.store(Out + pid_m * N + offs, scanned, mask=mask, cache_modifier=".cg")


@triton.jit(do_not_specialize=["part_num"])
def scan_part_sum_abc_kernel(In, Out, Partial, B, C, part_num, BLOCK_SIZE: tl.constexpr):
    pid_a = tl.program_id(0).to(tl.int64)
    pid_b = tl.program_id(1).to(tl.int64)
    pid_c = tl.program_id(2).to(tl.int64)
    b = pid_b * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offs = pid_a * B * C + b * C + pid_c
    mask = b < B
    x = tl.load(In + offs, mask=mask).to(tl.float32)
    tl.store(Out + offs, tl.cumsum(x, axis=0), mask=mask)
    tl.store(Partial + pid_a * part_num * C + pid_c + pid_b * C, tl.sum(x))


@triton.jit(do_not_specialize=["part_num"])
def add_base_sum_abc_kernel(Out, Partial, B, C, part_num, BLOCK_SIZE: tl.constexpr):
    pid_a = tl.program_id(0).to(tl.int64)
    pid_b = tl.program_id(1).to(tl.int64)
    pid_c = tl.program_id(2).to(tl.int64)
    b = pid_b * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offs = pid_a * B * C + pid_c + b * C
    mask = b < B
    out = tl.load(Out + offs, mask=mask)
    if pid_b > 0:
        base = tl.load(Partial + pid_a * part_num * C + pid_c + (pid_b - 1) * C)
        tl.store(Out + offs, (out + base).to(Out.dtype.element_ty), mask=mask)


def cumsum_rows(x, out, sms):
    """FlagGems' reduce_then_scan_row: one tile up to 16384, else 4096-wide tiles in
    min(tiles, 4 * SMs) chunks per row."""
    M, N = x.shape
    if N <= 16384:
        tile = triton.next_power_of_2(N)
        scan_root_kernel[(M, 1, 1)](x, out, N, tile, num_warps=8 if tile > 2048 else 4)
        return
    tile = min(4096, triton.next_power_of_2(N))
    warps = 8 if tile > 2048 else 4
    tiles = triton.cdiv(N, tile)
    ctas = min(tiles, 4 * sms)
    per_cta = triton.cdiv(tiles, ctas)
    sums = x.new_empty((M, ctas), dtype=out.dtype)
    prefix = x.new_empty((M, ctas), dtype=out.dtype)
    scan_block_sum_kernel[(M, ctas, 1, 1)](x, sums, N, per_cta, tile, num_warps=warps)
    scan_root_kernel[(M, 1, 1)](sums, prefix, ctas, triton.next_power_of_2(ctas),
                                num_warps=warps)
    scan_block_scan_kernel[(M, ctas, 1)](x, prefix, out, N, ctas, per_cta, tile,
                                         num_warps=warps)


def cumsum_column_parts(B):
    """The block size and block count of FlagGems' scan_then_fan along B."""
    block = triton.next_power_of_2(B) if B <= 4096 else 1024
    return block, triton.cdiv(B, block)


def cumsum_columns(x, out, partials):
    """FlagGems' scan_then_fan for [A, B, C] along B, recursing on the partial sums;
    `partials` holds the [A, parts, C] buffer of each level (cumsum_column_parts)."""
    A, B, C = x.shape
    block, parts = cumsum_column_parts(B)
    partial = partials[0]
    grid = (A, parts, C)
    scan_part_sum_abc_kernel[grid](x, out, partial, B, C, parts, block)
    if parts >= 2:
        cumsum_columns(partial, partial, partials[1:])
        add_base_sum_abc_kernel[grid](out, partial, B, C, parts, block)


# src/flag_gems/ops/layernorm.py: layer_norm_persistent_kernel, layer_norm_loop_kernel (with
# weight and bias).
@triton.jit(do_not_specialize=["eps"])
def layer_norm_persistent_kernel(In, Out, W, B, Mean, Rstd, M, N, eps, TILE_N: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, TILE_N)
    mask = cols < N
    x = tl.load(In + pid * N + cols, mask, other=0.0).to(tl.float32)
    m = tl.sum(x) / N
    d = x - m
    rstd = tl.math.rsqrt(tl.sum(tl.where(mask, d * d, 0)) / N + eps)
    tl.store(Mean + pid, m)
    tl.store(Rstd + pid, rstd)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    tl.store(Out + pid * N + cols, (x - m) * rstd * w + b, mask=mask)


@triton.jit(do_not_specialize=["eps"])
def layer_norm_loop_kernel(In, Out, W, B, Mean, Rstd, M, N, eps, TILE_N: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    m = tl.zeros((TILE_N,), dtype=tl.float32)  # Welford per lane: mean, M2, count
    s = tl.zeros((TILE_N,), dtype=tl.float32)
    cnt = tl.zeros((TILE_N,), dtype=tl.int32)
    steps = tl.cdiv(N, TILE_N)
    for step in range(0, steps - 1, 1):
        x = tl.load(In + pid * N + step * TILE_N + tl.arange(0, TILE_N)).to(tl.float32)
        new_m = m + (x - m) / (step + 1)
        s = s + (x - new_m) * (x - m)
        cnt += 1
        m = new_m
    for step in range(steps - 1, steps, 1):
        cols = step * TILE_N + tl.arange(0, TILE_N)
        mask = cols < N
        x = tl.load(In + pid * N + cols, mask=mask).to(tl.float32)
        new_m = tl.where(mask, m + (x - m) / (step + 1), m)
        s = tl.where(mask, s + (x - new_m) * (x - m), s)
        cnt += mask.to(tl.int32)
        m = new_m
    mean = tl.sum(m * cnt) / N
    rstd = tl.math.rsqrt(tl.sum(s + cnt * (m - mean) * (m - mean)) / N + eps)
    tl.store(Mean + pid, mean)
    tl.store(Rstd + pid, rstd)
    last = _prev_multiple_of(N, TILE_N)
    for start in range(0, TILE_N, TILE_N):  # backwards from the masked last tile
        cols = (last - start) + tl.arange(0, TILE_N)
        mask = cols < N
        x = tl.load(In + pid * N + cols, mask=mask, other=0.0,
                    eviction_policy="evict_first").to(tl.float32)
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        tl.store(Out + pid * N + cols, w * (x - mean) * rstd + b, mask=mask)
    for start in range(TILE_N, N, TILE_N):
        cols = (last - start) + tl.arange(0, TILE_N)
        x = tl.load(In + pid * N + cols, eviction_policy="evict_first").to(tl.float32)
        w = tl.load(W + cols)
        b = tl.load(B + cols)
        tl.store(Out + pid * N + cols, w * (x - mean) * rstd + b)


def layer_norm(x, y, w, b, mean, rstd, eps, tile, warps):
    M, N = x.shape
    kernel = layer_norm_persistent_kernel if N <= 4096 else layer_norm_loop_kernel
    kernel[(M, 1, 1)](x, y, w, b, mean, rstd, M, N, eps, TILE_N=tile, num_warps=warps)


# src/flag_gems/ops/weightnorm.py: weight_norm_kernel_first, weight_norm_kernel_last.
@triton.jit(do_not_specialize=["eps"])
def weight_norm_first_kernel(Out, Norm, V, G, M, N, eps, BLOCK_ROW_SIZE: tl.constexpr,
                             BLOCK_COL_SIZE: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_ROW_SIZE + tl.arange(0, BLOCK_ROW_SIZE)[:, None]
    row_mask = rows < M
    cols0 = tl.arange(0, BLOCK_COL_SIZE)[None, :]
    acc = tl.zeros([BLOCK_ROW_SIZE, BLOCK_COL_SIZE], dtype=tl.float32)
    for base in range(0, N, BLOCK_COL_SIZE):
        cols = base + cols0
        v = tl.load(V + rows * N + cols, mask=(cols < N) & row_mask).to(tl.float32)
        acc += v * v
    norm = tl.sqrt(tl.sum(acc, axis=1) + eps)
    tl.store(Norm + rows, norm[:, None], mask=row_mask)
    g = tl.load(G + rows, mask=row_mask).to(tl.float32)
    for base in range(0, N, BLOCK_COL_SIZE):
        cols = base + cols0
        mask = (cols < N) & row_mask
        v = tl.load(V + rows * N + cols, mask=mask).to(tl.float32)
        tl.store(Out + rows * N + cols, v / norm[:, None] * g, mask=mask)


@triton.jit(do_not_specialize=["eps"])
def weight_norm_last_kernel(Out, Norm, V, G, M, N, eps, BLOCK_ROW_SIZE: tl.constexpr,
                            BLOCK_COL_SIZE: tl.constexpr):
    cols = tl.program_id(0).to(tl.int64) * BLOCK_COL_SIZE + tl.arange(0, BLOCK_COL_SIZE)[:, None]
    col_mask = cols < N
    rows0 = tl.arange(0, BLOCK_ROW_SIZE)[None, :]
    acc = tl.zeros([BLOCK_COL_SIZE, BLOCK_ROW_SIZE], dtype=tl.float32)
    for base in range(0, M, BLOCK_ROW_SIZE):
        rows = base + rows0
        v = tl.load(V + rows * N + cols, mask=(rows < M) & col_mask).to(tl.float32)
        acc += v * v
    norm = tl.sqrt(tl.sum(acc, axis=1) + eps)
    tl.store(Norm + cols, norm[:, None], mask=col_mask)
    g = tl.load(G + cols, mask=col_mask).to(tl.float32)
    for base in range(0, M, BLOCK_ROW_SIZE):
        rows = base + rows0
        mask = (rows < M) & col_mask
        v = tl.load(V + rows * N + cols, mask=mask).to(tl.float32)
        tl.store(Out + rows * N + cols, v / norm[:, None] * g, mask=mask)


def weight_norm(out, norm, v, g, dim, block_rows, block_cols, warps):
    M, N = v.shape
    eps = 1.1754943508222875e-38  # torch.finfo(torch.float32).tiny
    if dim == 0:
        weight_norm_first_kernel[(triton.cdiv(M, block_rows),)](
            out, norm, v, g, M, N, eps, BLOCK_ROW_SIZE=block_rows, BLOCK_COL_SIZE=block_cols,
            num_warps=warps)
    else:
        weight_norm_last_kernel[(triton.cdiv(N, block_cols),)](
            out, norm, v, g, M, N, eps, BLOCK_ROW_SIZE=block_rows, BLOCK_COL_SIZE=block_cols,
            num_warps=warps)
