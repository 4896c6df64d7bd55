// GroupNorm forward, ported from Liger-Kernel (github.com/linkedin/Liger-Kernel,
// src/liger_kernel/ops/group_norm.py: _group_norm_forward_kernel; BSD 2-Clause licence).
// X is viewed as [batch, groups, hidden_size] with hidden_size = channels_per_group *
// spatial size; one program per (batch, group) accumulates the sum and the sum of squares in
// BLOCK_SIZE chunks, then normalizes with each element's channel weight and bias.
#include <tilec/tl.h>

template <class T, int BLOCK_SIZE>
TILEC_KERNEL void group_norm_forward_kernel(T *Y_ptr, int Y_row_stride, int Y_col_stride,
                                            const T *X_ptr, int X_row_stride, int X_col_stride,
                                            T *Mean_ptr, int Mean_row_stride, int Mean_col_stride,
                                            T *RSTD_ptr, int RSTD_row_stride, int RSTD_col_stride,
                                            const T *W_ptr, const T *B_ptr, int hidden_size,
                                            int channels_per_group, float eps) {
  int batch_idx = tl::program_id(0);
  int group_idx = tl::program_id(1);

  X_ptr += batch_idx * X_row_stride + group_idx * X_col_stride;
  Y_ptr += batch_idx * Y_row_stride + group_idx * Y_col_stride;

  auto block_range = tl::arange<0, BLOCK_SIZE>();

  // mean and variance from running sums
  float s = 0.0f;
  float squared_sum = 0.0f;
  for (int i : tl::range(0, hidden_size, BLOCK_SIZE)) {
    auto hidden_size_offsets = i + block_range;
    auto mask = hidden_size_offsets < hidden_size;
    auto X = tl::load(X_ptr + hidden_size_offsets, mask, 0.0f);
    s += tl::sum(X);
    squared_sum += tl::sum(X * X);
  }

  float m = s / hidden_size;

  // variance = E[X**2] - E[X]**2
  float variance = (squared_sum / hidden_size) - (m * m);

  float rstd = tl::rsqrt(variance + eps);

  // one flat loop over the group: each element's channel picks its weight and bias
  int hidden_size_per_channel = hidden_size / channels_per_group;
  for (int i : tl::range(0, hidden_size, BLOCK_SIZE)) {
    auto hidden_size_offsets = i + block_range;
    auto mask = hidden_size_offsets < hidden_size;
    auto X = tl::load(X_ptr + hidden_size_offsets, mask, m);
    auto local_channel = hidden_size_offsets / hidden_size_per_channel;
    auto global_channel = group_idx * channels_per_group + local_channel;
    auto W = tl::load(W_ptr + global_channel, mask);
    auto B = tl::load(B_ptr + global_channel, mask);
    auto Y = (X - m) * rstd * W + B;
    tl::store(Y_ptr + hidden_size_offsets, Y, mask);
  }

  tl::store(Mean_ptr + batch_idx * Mean_row_stride + group_idx * Mean_col_stride, m);
  tl::store(RSTD_ptr + batch_idx * RSTD_row_stride + group_idx * RSTD_col_stride, rstd);
}
