// Dynamic Tanh (DyT: y = gamma * tanh(alpha * x) + beta) forward and backward, ported from
// Liger-Kernel (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/dyt.py: _dyt_fwd_kernel,
// _dyt_bwd_kernel; BSD 2-Clause licence). x is [M, N] row-major; the grid is
// (cdiv(N, BLOCK_N), rows): forward, one program per row and column block; backward, program
// (i, j) walks rows j, j + num_programs(1), ... of column block i, writes dx, and its partial
// dgamma / dbeta row and dalpha (one float per 512 columns of DA's row j, at slot i); the host
// sums the partials.
//
// What differs from the original, and why:
// - Both kernels are @triton.autotune'd with key=["N"], N being a tl.constexpr. tilec's
//   TILEC_AUTOTUNE takes only scalar arguments as keys (the template values of a call are in
//   its tuning key already), so the declarations below have no .key. The backward's
//   reset_to_zero=["DA"] needs DA's element count, NUM_SMS * cdiv(N, 512), and a count hook
//   sees only the arguments and template values: neither the grid nor the device's SM count
//   (CUDA calls are undeclared there). The count given is DA's first row, cdiv(N, 512), the
//   most that never runs past DA; the other rows of DA must be zeroed by the caller (the host
//   code allocates DA with torch.zeros, and zeroes it again after a call that tuned).
// - `db` exists only under `if HAVE_BETA:` in the original; C++ declares it before the loop
//   (the translator drops it when HAVE_BETA is false).
// - Python's `range(start_row_id, M, tl.num_programs(1))` is a plain for loop over int64.
// - libdevice's tanh is tl::tanh; Beta may be a null pointer when HAVE_BETA is false (the
//   original passes None).
#include <tilec/tl.h>

template <class T, bool HAVE_BETA, int N, int BLOCK_N>
TILEC_KERNEL void dyt_fwd_kernel(const T *X, T *Y, const T *Alpha, const T *Gamma, const T *Beta) {
  auto col = tl::cast<int64_t>(tl::program_id(0)) * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto mask = col < N;
  auto row_id = tl::cast<int64_t>(tl::program_id(1));

  X += row_id * N;
  Y += row_id * N;
  auto alpha = tl::cast<float>(tl::load(Alpha));

  auto gamma = tl::cast<float>(tl::load(Gamma + col, mask, 0.0f));

  auto x = tl::cast<float>(tl::load(X + col, mask, 0.0f));

  auto tanh_x = tl::tanh(alpha * x);
  auto y = tanh_x * gamma;
  if constexpr (HAVE_BETA) {
    auto beta = tl::cast<float>(tl::load(Beta + col, mask, 0.0f));
    y += beta;
  }
  tl::store(Y + col, y, mask);
}

TILEC_AUTOTUNE(dyt_fwd_kernel) = {
    .configs = {{.values = {{"BLOCK_N", 1024}}, .num_warps = 4, .num_stages = 1},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 8, .num_stages = 1},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 16, .num_stages = 1},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 4, .num_stages = 2},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 8, .num_stages = 2},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 16, .num_stages = 2},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 4, .num_stages = 1},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 8, .num_stages = 1},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 16, .num_stages = 1},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 4, .num_stages = 2},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 8, .num_stages = 2},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 16, .num_stages = 2},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 4, .num_stages = 1},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 8, .num_stages = 1},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 16, .num_stages = 1},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 4, .num_stages = 2},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 8, .num_stages = 2},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 16, .num_stages = 2}},
};

template <class T, bool HAVE_BETA, int N, int BLOCK_N>
TILEC_KERNEL void dyt_bwd_kernel(const T *DY, T *DX, float *DA, float *DG, float *DB, const T *X,
                                 const T *Alpha, const T *Gamma, int M) {
  auto col = tl::cast<int64_t>(tl::program_id(0)) * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto mask = col < N;
  auto start_row_id = tl::cast<int64_t>(tl::program_id(1));

  auto alpha = tl::cast<float>(tl::load(Alpha));
  float da = 0.0f;
  auto gamma = tl::cast<float>(tl::load(Gamma + col, mask, 0.0f));
  auto dg = tl::zeros<float, BLOCK_N>();
  auto db = tl::zeros<float, BLOCK_N>();
  for (int64_t row_id = start_row_id; row_id < M; row_id += tl::num_programs(1)) {
    auto x = tl::cast<float>(tl::load(X + row_id * N + col, mask, 0.0f));
    auto dy = tl::cast<float>(tl::load(DY + row_id * N + col, mask, 0.0f));
    auto tanh_x = tl::tanh(alpha * x);
    if constexpr (HAVE_BETA)
      db += dy;
    dg += dy * tanh_x;
    auto tmp = (1 - tanh_x * tanh_x) * dy * gamma;
    da += tl::sum<0>(x * tmp);
    auto dx = alpha * tmp;
    tl::store(DX + row_id * N + col, dx, mask);
  }

  tl::store(DG + start_row_id * N + col, dg, mask);
  if constexpr (HAVE_BETA)
    tl::store(DB + start_row_id * N + col, db, mask);
  tl::store(DA + start_row_id * tl::cdiv(N, 512) + tl::program_id(0), da);
}

TILEC_AUTOTUNE(dyt_bwd_kernel) = {
    .configs = {{.values = {{"BLOCK_N", 1024}}, .num_warps = 4, .num_stages = 1},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 8, .num_stages = 1},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 16, .num_stages = 1},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 4, .num_stages = 2},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 8, .num_stages = 2},
                {.values = {{"BLOCK_N", 1024}}, .num_warps = 16, .num_stages = 2},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 4, .num_stages = 1},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 8, .num_stages = 1},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 16, .num_stages = 1},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 4, .num_stages = 2},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 8, .num_stages = 2},
                {.values = {{"BLOCK_N", 2048}}, .num_warps = 16, .num_stages = 2},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 4, .num_stages = 1},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 8, .num_stages = 1},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 16, .num_stages = 1},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 4, .num_stages = 2},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 8, .num_stages = 2},
                {.values = {{"BLOCK_N", 4096}}, .num_warps = 16, .num_stages = 2}},
    .reset_to_zero = {{"DA", [](int N) { return tilec::cdiv(N, 512); }}},
};
