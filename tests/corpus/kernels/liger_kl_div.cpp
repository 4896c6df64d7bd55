// KL divergence forward and backward, ported from Liger-Kernel
// (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/kl_div.py: _kldiv_kernel_forward,
// _kldiv_kernel_backward; BSD 2-Clause licence). The prediction y is in log space; one
// program per row walks it in BLOCK_SIZE chunks. Forward: the row's loss sum (reductions
// sum, mean, batchmean) or every element (none). Backward: -target (or -exp(target)).
#include <tilec/tl.h>

constexpr int REDUCTION_MODE_NONE = 0;
constexpr int REDUCTION_MODE_SUM = 1;
constexpr int REDUCTION_MODE_MEAN = 2;
constexpr int REDUCTION_MODE_BATCHMEAN = 3;

template <class T, int BLOCK_SIZE, bool log_target, int reduction>
TILEC_KERNEL void kldiv_kernel_forward(const T *y_ptr, int y_stride, const T *gt_ptr,
                                       int gt_stride, float *loss_ptr, int loss_stride,
                                       int n_cols, float eps) {
  int64_t pid = tl::program_id(0);
  y_ptr += pid * y_stride;
  gt_ptr += pid * gt_stride;
  loss_ptr += pid * loss_stride;

  auto base_offsets = tl::arange<0, BLOCK_SIZE>();

  float loss_sum = 0.0f;
  for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto offsets = i + base_offsets;
    auto mask = offsets < n_cols;
    // In float, as the original computes: its `eps` is a float32 argument, which promotes a
    // bf16 tile in Triton; a tile with a C++ float scalar keeps the tile's type here.
    auto y = tl::cast<float>(tl::load(y_ptr + offsets, mask, 0.0f));
    auto y_true = tl::cast<float>(tl::load(gt_ptr + offsets, mask, 0.0f));

    // KL(y_true || y) = y_true * (log(y_true) - log(y)), y given in log space
    auto loss = tl::zeros_like(y);
    if constexpr (!log_target)
      loss = y_true * (tl::log(tl::maximum(y_true, eps)) - y);
    else
      loss = tl::exp(y_true) * (y_true - y);

    if constexpr (reduction == REDUCTION_MODE_NONE)
      tl::store(loss_ptr + offsets, loss, mask);
    else
      loss_sum += tl::sum<0>(loss);
  }

  if constexpr (reduction != REDUCTION_MODE_NONE)
    tl::store(loss_ptr, loss_sum);
}

template <class T, int BLOCK_SIZE, bool log_target>
TILEC_KERNEL void kldiv_kernel_backward(const T *target_ptr, int target_stride,
                                        T *new_grads_ptr, int new_grads_stride, int n_cols) {
  int64_t pid = tl::program_id(0);

  target_ptr += pid * target_stride;
  new_grads_ptr += pid * new_grads_stride;

  for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto offsets = i + tl::arange<0, BLOCK_SIZE>();
    auto mask = offsets < n_cols;

    auto target = tl::load(target_ptr + offsets, mask, 0.0f);

    auto res = tl::zeros_like(target);
    if constexpr (!log_target)
      res = target * -1;
    else
      res = -tl::exp(target);

    tl::store(new_grads_ptr + offsets, res, mask);
  }
}
