// RMSNorm forward and backward, ported from Liger-Kernel
// (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/rms_norm.py: _rms_norm_forward_kernel,
// _rms_norm_backward_kernel; BSD 2-Clause licence). The original's "llama" casting mode with a
// weight: rstd in float, the normalized row rounded to the input type before the weight
// multiplies it. One row per program forward; backward, each program walks rows_per_program
// rows and writes its partial dW row (the host sums them). BLOCK_SIZE is the row length
// rounded up to a power of two.
#include <tilec/tl.h>

template <class T, int BLOCK_SIZE>
TILEC_KERNEL void rms_norm_forward_kernel(T *Y_ptr, int Y_row_stride, const T *X_ptr,
                                          int X_row_stride, const T *W_ptr, float *RSTD_ptr,
                                          int RSTD_row_stride, int n_cols, float eps,
                                          float offset) {
  int64_t row_idx = tl::program_id(0);
  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  T *y_base = Y_ptr + row_idx * Y_row_stride;
  const T *x_base = X_ptr + row_idx * X_row_stride;
  float *rstd_base = RSTD_ptr + row_idx * RSTD_row_stride;

  auto X_row = tl::load(x_base + col_offsets, mask, 0);
  auto W_row = tl::load(W_ptr + col_offsets, mask, 0);

  // llama: only rstd is computed in float
  auto X_f32 = tl::cast<float>(X_row);
  float mean_square = tl::sum(X_f32 * X_f32) / n_cols;
  float rstd = tl::rsqrt(mean_square + eps);
  tl::store(rstd_base, rstd);

  // llama: the normalized row is rounded to the input's type; `offset` is a float argument,
  // which promotes the weight (and so the product) to float in Triton
  auto X_norm = tl::cast<T>(X_f32 * rstd);
  auto Y_row = X_norm * (offset + tl::cast<float>(W_row));
  tl::store(y_base + col_offsets, Y_row, mask);
}

template <class T, int BLOCK_SIZE>
TILEC_KERNEL void rms_norm_backward_kernel(const T *dY_ptr, int dY_row_stride, T *dX_ptr,
                                           int dX_row_stride, const T *X_ptr, int X_row_stride,
                                           const T *W_ptr, const float *RSTD_ptr,
                                           int RSTD_row_stride, float *dW_ptr, int dW_row_stride,
                                           int n_rows, int n_cols, float offset,
                                           int rows_per_program) {
  int64_t row_block_id = tl::program_id(0);
  int64_t row_start = row_block_id * rows_per_program;
  int64_t row_end = tl::minimum((row_block_id + 1) * rows_per_program, int64_t(n_rows));
  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  auto dW_row = tl::zeros<float, BLOCK_SIZE>();
  // the float argument promotes the weight to float, as in the original
  auto W_row = tl::cast<float>(tl::load(W_ptr + col_offsets, mask, 0.0f)) + offset;

  for (int64_t row_idx = row_start; row_idx < row_end; row_idx += 1) {
    auto dY_row = tl::load(dY_ptr + row_idx * dY_row_stride + col_offsets, mask, 0.0f);
    auto X_row = tl::load(X_ptr + row_idx * X_row_stride + col_offsets, mask, 0.0f);
    float rstd_row = tl::load(RSTD_ptr + row_idx * RSTD_row_stride);
    auto X_f32 = tl::cast<float>(X_row);

    // llama: dY * W, in float since W is
    auto m = dY_row * W_row;
    auto dX_row = rstd_row * m;
    dX_row += rstd_row * (-(1.0f / n_cols) * rstd_row * rstd_row * tl::sum(m * X_f32) * X_f32);
    dW_row += dY_row * tl::cast<T>(X_f32 * rstd_row);

    tl::store(dX_ptr + row_idx * dX_row_stride + col_offsets, tl::cast<T>(dX_row), mask);
  }
  tl::store(dW_ptr + row_block_id * dW_row_stride + col_offsets, dW_row, mask);
}
