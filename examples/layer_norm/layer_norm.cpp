// Layer normalization over the last dimension (Triton tutorial 05), fp16 in and out, fp32
// math. Row-major [M, N] matrices with a row stride; w and b have N elements.
#include <tilec/tl.h>

// Forward: y = (x - mean) * rstd * w + b per row; also stores mean and rstd (fp32) for the
// backward pass. One row per program instance. Two kernels, so that each is compiled for its
// own register needs: the common case keeps the whole row in registers (n <= BLOCK); the
// other walks over column blocks.
template <int BLOCK>
TILEC_KERNEL void layer_norm_fwd(const tl::half *x, tl::half *y, const tl::half *w,
                                 const tl::half *b, float *mean, float *rstd, int stride, int n,
                                 float eps) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  // The whole row fits in one tile: read x once and keep it in registers.
  auto mask = cols < n;
  // x stays in registers as fp16 (half the registers of fp32; each use converts it again),
  // which leaves room for more rows in flight per SM.
  auto xh = tl::load(x + row * stride + cols, mask);
  float mu = tl::sum(tl::cast<float>(xh)) / n;
  auto d = tl::where(mask, tl::cast<float>(xh) - mu, 0.0f); // padding must not add to the variance
  float rs = tl::rsqrt(tl::sum(d * d) / n + eps);
  tl::store(mean + row, mu);
  tl::store(rstd + row, rs);
  // w and b are loaded here, not before the reductions: live across them they cost
  // registers and occupancy, which measured slower.
  auto wv = tl::cast<float>(tl::load(w + cols, mask));
  auto bv = tl::cast<float>(tl::load(b + cols, mask));
  tl::store(y + row * stride + cols, tl::cast<tl::half>((tl::cast<float>(xh) - mu) * rs * wv + bv),
           mask);
}

// Forward for rows wider than BLOCK: three passes over column blocks (sum, squared
// deviations, normalize); the second and third re-read x, which stays mostly in L2.
template <int BLOCK>
TILEC_KERNEL void layer_norm_fwd_wide(const tl::half *x, tl::half *y, const tl::half *w,
                                      const tl::half *b, float *mean, float *rstd, int stride,
                                      int n, float eps) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto acc = tl::zeros<float, BLOCK>();
  for (int off = 0; off < n; off += BLOCK) {
    auto c = off + cols;
    acc += tl::cast<float>(tl::load(x + row * stride + c, c < n));
  }
  float mu = tl::sum(acc) / n;
  auto sq = tl::zeros<float, BLOCK>();
  for (int off = 0; off < n; off += BLOCK) {
    auto c = off + cols;
    auto xv = tl::cast<float>(tl::load(x + row * stride + c, c < n));
    auto d = tl::where(c < n, xv - mu, 0.0f);
    sq += d * d;
  }
  float rs = tl::rsqrt(tl::sum(sq) / n + eps);
  tl::store(mean + row, mu);
  tl::store(rstd + row, rs);
  for (int off = 0; off < n; off += BLOCK) {
    auto c = off + cols;
    auto mask = c < n;
    auto xv = tl::cast<float>(tl::load(x + row * stride + c, mask));
    auto wv = tl::cast<float>(tl::load(w + c, mask));
    auto bv = tl::cast<float>(tl::load(b + c, mask));
    tl::store(y + row * stride + c, tl::cast<tl::half>((xv - mu) * rs * wv + bv), mask);
  }
}

// Backward, first stage (needs n <= BLOCK). Program g handles rows g, g + G, g + 2G, ...
// (G = the grid size): it writes dx for each of them and accumulates dw and db for its rows,
// storing the partial sums to row g of dw_part and db_part ([G, n], fp32). The partials of
// different programs never overlap, so no locks or atomics are needed.
//   xhat = (x - mean) * rstd, wdy = w * dy
//   dx = (wdy - (xhat * mean(xhat * wdy) + mean(wdy))) * rstd
//   dw = sum over rows of dy * xhat, db = sum over rows of dy
template <int BLOCK>
TILEC_KERNEL void layer_norm_bwd_dx(tl::half *dx, const tl::half *dy, float *dw_part,
                                    float *db_part, const tl::half *x, const tl::half *w,
                                    const float *mean, const float *rstd, int stride, int n_rows,
                                    int n) {
  int g = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto wv = tl::cast<float>(tl::load(w + cols, mask));
  auto dw_acc = tl::zeros<float, BLOCK>();
  auto db_acc = tl::zeros<float, BLOCK>();
  for (int row = g; row < n_rows; row += tl::num_programs(0)) {
    // x, dy and dx are each touched once: streamed (evict_first), measured 4% faster.
    auto xv = tl::cast<float>(tl::load(x + row * stride + cols, mask, tl::evict_first));
    auto dyv = tl::cast<float>(tl::load(dy + row * stride + cols, mask, tl::evict_first));
    float mu = tl::load(mean + row);
    float rs = tl::load(rstd + row);
    auto xhat = tl::where(mask, (xv - mu) * rs, 0.0f);
    auto wdy = wv * dyv; // 0 in the padding lanes: both loads read 0 there
    float c1 = tl::sum(xhat * wdy) / n;
    float c2 = tl::sum(wdy) / n;
    auto dxv = (wdy - (xhat * c1 + c2)) * rs;
    tl::store(dx + row * stride + cols, tl::cast<tl::half>(dxv), mask, tl::evict_first);
    dw_acc += dyv * xhat;
    db_acc += dyv;
  }
  tl::store(dw_part + g * n + cols, dw_acc, mask);
  tl::store(db_part + g * n + cols, db_acc, mask);
}

// Backward, second stage: dw[c] = sum over g of dw_part[g, c] (db alike), one BLOCK-column
// block per program instance, four groups per iteration. The loop is bound by load latency,
// not bandwidth: see bench/NOTES.md.
template <int BLOCK>
TILEC_KERNEL void layer_norm_bwd_dwdb(const float *dw_part, const float *db_part, tl::half *dw,
                                      tl::half *db, int groups, int n) {
  auto cols = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto dw_acc = tl::zeros<float, BLOCK>();
  auto db_acc = tl::zeros<float, BLOCK>();
  for (int g = 0; g < groups; g += 4) {
    for (int k : tl::static_range<0, 4>()) {
      auto m = mask && (g + k < groups);
      dw_acc += tl::load(dw_part + (g + k) * n + cols, m);
      db_acc += tl::load(db_part + (g + k) * n + cols, m);
    }
  }
  tl::store(dw + cols, tl::cast<tl::half>(dw_acc), mask);
  tl::store(db + cols, tl::cast<tl::half>(db_acc), mask);
}

// Autotuning of the kernels that hold a row in one tile: BLOCK follows from the row length (a
// heuristic, Triton's @triton.heuristics); num_warps is timed for each row length (Triton's
// @triton.autotune). The hooks are host functions, copied into the launcher header.

// The row length rounded up to a power of two, at least one warp's worth.
inline int row_block(int n) { return tilec::next_power_of_2(n < 32 ? 32 : n); }

// Keeps the num_warps that give each thread from 1 to 32 values of the row.
inline bool fits_block(int BLOCK, int num_warps) {
  return 32 * num_warps <= BLOCK && BLOCK <= 32 * 32 * num_warps;
}

TILEC_AUTOTUNE(layer_norm_fwd) = {
    .configs = {{.num_warps = 1},
                {.num_warps = 2},
                {.num_warps = 4},
                {.num_warps = 8},
                {.num_warps = 16},
                {.num_warps = 32}},
    .key = {"n"},
    .prune = fits_block,
    .heuristics = {{"BLOCK", row_block}},
};

TILEC_AUTOTUNE(layer_norm_bwd_dx) = {
    .configs = {{.num_warps = 1},
                {.num_warps = 2},
                {.num_warps = 4},
                {.num_warps = 8},
                {.num_warps = 16},
                {.num_warps = 32}},
    .key = {"n"},
    .prune = fits_block,
    .heuristics = {{"BLOCK", row_block}},
};
