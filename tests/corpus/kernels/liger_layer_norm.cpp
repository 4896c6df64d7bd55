// LayerNorm forward and backward, ported from Liger-Kernel (github.com/linkedin/Liger-Kernel,
// src/liger_kernel/ops/layer_norm.py: _layer_norm_forward_kernel, _layer_norm_backward_kernel;
// BSD 2-Clause licence). Forward: one row per program, statistics in float, mean and rstd
// stored in the input's type. Backward: each program walks rows_per_program rows and writes
// its partial dW and dB rows (the host sums them).
#include <tilec/tl.h>

template <class T, int BLOCK_SIZE>
TILEC_KERNEL void layer_norm_forward_kernel(T *Y_ptr, int Y_row_stride, const T *X_ptr,
                                            int X_row_stride, const T *W_ptr, const T *B_ptr,
                                            T *Mean_ptr, int Mean_row_stride, T *RSTD_ptr,
                                            int RSTD_row_stride, int n_cols, float eps) {
  int64_t row_idx = tl::program_id(0);
  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  auto W_row = tl::load(W_ptr + col_offsets, mask, 0.0f);
  auto B_row = tl::load(B_ptr + col_offsets, mask, 0.0f);
  auto W_f32 = tl::cast<float>(W_row);
  auto B_f32 = tl::cast<float>(B_row);

  const T *row_X_ptr = X_ptr + row_idx * X_row_stride;
  T *row_Y_ptr = Y_ptr + row_idx * Y_row_stride;
  T *row_Mean_ptr = Mean_ptr + row_idx * Mean_row_stride;
  T *row_RSTD_ptr = RSTD_ptr + row_idx * RSTD_row_stride;

  auto X_row = tl::load(row_X_ptr + col_offsets, mask, 0.0f);
  auto X_f32 = tl::cast<float>(X_row);

  float mean = tl::sum<0>(X_f32) / n_cols;
  auto X_centered = X_f32 - mean;
  auto X_centered_masked = tl::where(mask, X_centered, 0.0f);
  float var = tl::sum<0>(X_centered_masked * X_centered_masked) / n_cols;
  float rstd = tl::rsqrt(var + eps);

  tl::store(row_Mean_ptr, tl::cast<T>(mean));
  tl::store(row_RSTD_ptr, tl::cast<T>(rstd));

  auto Y_f32 = X_centered * rstd * W_f32 + B_f32;
  tl::store(row_Y_ptr + col_offsets, tl::cast<T>(Y_f32), mask);
}

template <class T, int rows_per_program, int BLOCK_SIZE>
TILEC_KERNEL void layer_norm_backward_kernel(const T *X_ptr, int stride_x, const T *W_ptr,
                                             const T *Mean_ptr, int stride_mean,
                                             const T *RSTD_ptr, int stride_rstd, T *DX_ptr,
                                             int stride_dx, float *DW_ptr, int stride_dw,
                                             float *DB_ptr, int stride_db, const T *DY_ptr,
                                             int stride_dy, int n_rows, int n_cols) {
  int64_t row_block_id = tl::program_id(0);
  int64_t row_start = row_block_id * rows_per_program;
  int64_t row_end = tl::minimum((row_block_id + 1) * rows_per_program, int64_t(n_rows));
  auto cols = tl::arange<0, BLOCK_SIZE>();
  auto mask = cols < n_cols;

  auto dW_row = tl::zeros<float, BLOCK_SIZE>();
  auto db_row = tl::zeros<float, BLOCK_SIZE>();

  auto w = tl::load(W_ptr + cols, mask, 0.0f);
  auto w_f32 = tl::cast<float>(w);

  for (int64_t row_idx = row_start; row_idx < row_end; row_idx += 1) {
    const T *row_X_ptr = X_ptr + row_idx * stride_x;
    T *row_DX_ptr = DX_ptr + row_idx * stride_dx;
    const T *row_DY_ptr = DY_ptr + row_idx * stride_dy;
    const T *row_Mean_ptr = Mean_ptr + row_idx * stride_mean;
    const T *row_RSTD_ptr = RSTD_ptr + row_idx * stride_rstd;

    auto x = tl::load(row_X_ptr + cols, mask, 0.0f);
    auto dy = tl::load(row_DY_ptr + cols, mask, 0.0f);
    T mean = tl::load(row_Mean_ptr);
    T rstd = tl::load(row_RSTD_ptr);

    auto x_f32 = tl::cast<float>(x);
    auto dy_f32 = tl::cast<float>(dy);
    float mean_f32 = tl::cast<float>(mean);
    float rstd_f32 = tl::cast<float>(rstd);

    auto x_hat = (x_f32 - mean_f32) * rstd_f32;
    auto wdy = w_f32 * dy_f32;
    float c1 = tl::sum<0>(x_hat * wdy) / n_cols;
    float c2 = tl::sum<0>(wdy) / n_cols;
    auto dx = (wdy - (x_hat * c1 + c2)) * rstd_f32;
    tl::store(row_DX_ptr + cols, dx, mask);

    auto dw = dy_f32 * x_hat;
    auto db = dy_f32;
    dW_row += dw;
    db_row += db;
  }
  tl::store(DW_ptr + row_block_id * stride_dw + cols, dW_row, mask);
  tl::store(DB_ptr + row_block_id * stride_db + cols, db_row, mask);
}
