// Sparsemax, forward and backward, ported from Liger-Kernel (github.com/linkedin/Liger-Kernel,
// src/liger_kernel/ops/sparsemax.py: _sparsemax_forward_kernel, _sparsemax_backward_kernel;
// BSD 2-Clause licence). One row per program, walked in block_size chunks. The forward takes
// the row's threshold tau (the host finds it by sorting the row, as the original's Python does)
// and writes max(x - tau, 0). The backward sums the incoming gradient over the row's support
// (outputs > 0) and its size in a first pass, then writes go - mean over the support, zero
// elsewhere, in a second.
//
// What differs from the original, and why:
// - `out_ty = o_row.dtype.element_ty` is the element type parameter T; `tl.cast(v, out_ty)`
//   followed by `.to(tl.float32)` (the mean rounded to the output's type and back) is
//   tl::cast<float>(tl::cast<T>(v)).
// - `tl.zeros((), dtype=tl.float32)` (a rank-0 tile) is a float scalar.
// - num_warps is a launch option, not a kernel parameter.
#include <tilec/tl.h>

template <class T, int block_size>
TILEC_KERNEL void sparsemax_forward_kernel(const T *x_ptr, int x_stride, const T *tau_ptr,
                                           int tau_stride, T *o_ptr, int o_stride, int n_cols) {
  int row = tl::program_id(0);
  const T *x_row = x_ptr + row * x_stride;
  const T *tau_row = tau_ptr + row * tau_stride;
  T *o_row = o_ptr + row * o_stride;

  float tau = tl::cast<float>(tl::load(tau_row));

  for (int i = 0; i < tl::cdiv(n_cols, block_size); ++i) {
    auto offs = i * block_size + tl::arange<0, block_size>();
    auto mask = offs < n_cols;

    auto x_fp32 = tl::cast<float>(tl::load(x_row + offs, mask, 0.0f));
    auto y = x_fp32 - tau;
    y = tl::where(y > 0.0f, y, 0.0f);
    tl::store(o_row + offs, tl::cast<T>(y), mask);
  }
}

template <class T, int block_size>
TILEC_KERNEL void sparsemax_backward_kernel(const T *o_ptr, int o_stride, const T *go_ptr,
                                            int go_stride, T *gi_ptr, int gi_stride,
                                            int n_cols) {
  int row = tl::program_id(0);
  const T *o_row = o_ptr + row * o_stride;
  const T *go_row = go_ptr + row * go_stride;
  T *gi_row = gi_ptr + row * gi_stride;

  float acc_sum = 0.0f;
  float acc_cnt = 0.0f;

  for (int i = 0; i < tl::cdiv(n_cols, block_size); ++i) {
    auto offs = i * block_size + tl::arange<0, block_size>();
    auto mask = offs < n_cols;

    auto o_f32 = tl::cast<float>(tl::load(o_row + offs, mask, 0.0f));
    auto go_f32 = tl::cast<float>(tl::load(go_row + offs, mask, 0.0f));
    auto supp = o_f32 > 0.0f;

    acc_sum += tl::sum(tl::where(supp, go_f32, 0.0f));
    acc_cnt += tl::sum(tl::where(supp, 1.0f, 0.0f));
  }

  float v_hat_fp32 = acc_sum / tl::maximum(acc_cnt, 1e-9f);
  float v_hat = tl::cast<float>(tl::cast<T>(v_hat_fp32)); // rounded as the output is

  for (int i = 0; i < tl::cdiv(n_cols, block_size); ++i) {
    auto offs = i * block_size + tl::arange<0, block_size>();
    auto mask = offs < n_cols;

    auto o_f32 = tl::cast<float>(tl::load(o_row + offs, mask, 0.0f));
    auto go_f32 = tl::cast<float>(tl::load(go_row + offs, mask, 0.0f));
    auto supp = o_f32 > 0.0f;

    auto gi_f32 = tl::where(supp, go_f32 - v_hat, 0.0f);
    tl::store(gi_row + offs, tl::cast<T>(gi_f32), mask);
  }
}
