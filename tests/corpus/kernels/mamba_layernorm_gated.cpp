// Gated LayerNorm / RMSNorm forward, ported from Mamba (github.com/state-spaces/mamba,
// mamba_ssm/ops/triton/layernorm_gated.py at e9594ce1: _layer_norm_fwd_1pass_kernel;
// Apache License 2.0).
//
// One program normalizes one group (N columns) of one row: mean (LayerNorm only) and rstd
// in float, stored per (group, row); y = x_hat * w (+ b), with the gate silu(z) applied to
// x before the normalization or to y after it (NORM_BEFORE_GATE).
//
// Differences from the original: its optional pointers (B, Z: Triton heuristics testing
// `ptr is not None`) are the bool template parameters HAS_BIAS and HAS_Z, as the original's
// constexprs are; Mean may be null for RMSNorm. The element types are template parameters
// (T for X, Y and Z; TW for W and B). C++ needs a variable declared before an if constexpr
// that defines it in one branch and reads it after, initialized: mean, var, z and b are
// declared before their branches (0 where the original leaves them undefined). The
// original's conditional expressions on constexprs, `(x - mean) * rstd if not IS_RMS_NORM
// else x * rstd` and `x_hat * w + b if HAS_BIAS else x_hat * w`, are if constexpr
// statements: the translator refuses `IS_RMS_NORM ? a : b` on tiles even when the condition
// is a template parameter. eps is a float argument.
#include <tilec/tl.h>

template <class T, class TW, int BLOCK_N, bool HAS_BIAS, bool HAS_Z, bool NORM_BEFORE_GATE,
          bool IS_RMS_NORM>
TILEC_KERNEL void _layer_norm_fwd_1pass_kernel(const T *X, T *Y, const TW *W, const TW *B,
                                               const T *Z,               // the gate's input
                                               float *Mean, float *Rstd, // [ngroups, M] each
                                               int stride_x_row, int stride_y_row, int stride_z_row,
                                               int M,
                                               int N, // the group size: columns per program
                                               float eps) {
  // program (row, group)
  int row = tl::program_id(0);
  int group = tl::program_id(1);
  X += row * stride_x_row + group * N;
  Y += row * stride_y_row + group * N;
  if constexpr (HAS_Z)
    Z += row * stride_z_row + group * N;
  if constexpr (!IS_RMS_NORM)
    Mean += group * M;
  Rstd += group * M;
  W += group * N;
  if constexpr (HAS_BIAS)
    B += group * N;
  // statistics in float
  auto cols = tl::arange<0, BLOCK_N>();
  auto x = tl::cast<float>(tl::load(X + cols, cols < N, 0.0f));
  auto z = tl::zeros<float, BLOCK_N>();
  if constexpr (HAS_Z && !NORM_BEFORE_GATE) {
    z = tl::cast<float>(tl::load(Z + cols, cols < N));
    x *= z * tl::sigmoid(z);
  }
  float mean = 0.0f;
  float var = 0.0f;
  if constexpr (!IS_RMS_NORM) {
    mean = tl::sum<0>(x) / N;
    tl::store(Mean + row, mean);
    auto xbar = tl::where(cols < N, x - mean, 0.0f);
    var = tl::sum<0>(xbar * xbar) / N;
  } else {
    auto xbar = tl::where(cols < N, x, 0.0f);
    var = tl::sum<0>(xbar * xbar) / N;
  }
  float rstd = 1 / tl::sqrt(var + eps);
  tl::store(Rstd + row, rstd);
  // normalize, scale, shift, gate
  auto mask = cols < N;
  auto w = tl::cast<float>(tl::load(W + cols, mask));
  auto b = tl::zeros<float, BLOCK_N>();
  if constexpr (HAS_BIAS)
    b = tl::cast<float>(tl::load(B + cols, mask));
  auto x_hat = x * rstd;
  if constexpr (!IS_RMS_NORM)
    x_hat = (x - mean) * rstd;
  auto y = x_hat * w;
  if constexpr (HAS_BIAS)
    y = x_hat * w + b;
  if constexpr (HAS_Z && NORM_BEFORE_GATE) {
    z = tl::cast<float>(tl::load(Z + cols, mask));
    y *= z * tl::sigmoid(z);
  }
  tl::store(Y + cols, y, mask);
}
