// Total variation distance loss and gradient, ported from Liger-Kernel
// (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/tvd.py: _tv_distance_kernel; BSD
// 2-Clause licence). One row per program, walked in BLOCK_SIZE chunks: the gradient for every
// element, already multiplied by the reduction's scale, and the loss per element (reduction
// "none") or per row (scaled the same way). A row whose label is ignore_index gets zeros.
//
// What differs from the original, and why:
// - Its reduction modes are module-level `_REDUCTION_MODE_* = tl.constexpr(k)`; a leading
//   underscore and a capital is reserved in C++, so they are REDUCTION_MODE_* here (the names
//   and values of liger_kl_div.cpp: the two files do not go in one translation unit).
// - The labels are int64 (a LongTensor); without labels the original passes a dummy float
//   tensor, here a null pointer that is never read.
// - The host code (n_non_ignore, the scale per reduction mode, the sums over rows) stays with
//   the caller.
#include <tilec/tl.h>

constexpr int REDUCTION_MODE_NONE = 0;
constexpr int REDUCTION_MODE_SUM = 1;
constexpr int REDUCTION_MODE_MEAN = 2;
constexpr int REDUCTION_MODE_BATCHMEAN = 3;

template <class T, int ignore_index, int BLOCK_SIZE, bool HAS_LABEL,
          int reduction = REDUCTION_MODE_BATCHMEAN>
TILEC_KERNEL void tv_distance_kernel(const T *p_ptr, int p_stride, const T *q_ptr, int q_stride,
                                     float *loss_ptr, int loss_stride, T *grads_ptr,
                                     int grads_stride, const int64_t *label_ptr, int n_cols,
                                     float scale) { // the reduction's scale, from the host
  int64_t pid = tl::program_id(0);
  p_ptr += pid * p_stride;
  q_ptr += pid * q_stride;
  loss_ptr += pid * loss_stride;
  grads_ptr += pid * grads_stride;
  label_ptr += pid;

  auto base_offsets = tl::arange<0, BLOCK_SIZE>();

  if constexpr (HAS_LABEL) {
    int64_t label = tl::load(label_ptr);
    if (label == ignore_index) {
      for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
        auto offsets = i + base_offsets;
        auto mask = offsets < n_cols;
        tl::store(grads_ptr + offsets, 0.0f, mask);
        if constexpr (reduction == REDUCTION_MODE_NONE)
          tl::store(loss_ptr + offsets, 0.0f, mask);
      }
      return;
    }
  }

  float loss_sum = 0.0f;
  for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto offsets = i + base_offsets;
    auto mask = offsets < n_cols;

    auto p = tl::load(p_ptr + offsets, mask, 0.0f);
    auto q = tl::load(q_ptr + offsets, mask, 0.0f);

    // TVD(P || Q) = 0.5 |P - Q|
    auto tv_loss = 0.5f * tl::abs(p - q);

    // the gradient, already scaled for the reduction
    auto grad_res = tl::where(p > q, 0.5f * scale, -0.5f * scale);

    tl::store(grads_ptr + offsets, grad_res, mask);

    if constexpr (reduction == REDUCTION_MODE_NONE)
      tl::store(loss_ptr + offsets, tv_loss, mask);
    else
      loss_sum += tl::sum<0>(tv_loss);
  }

  if constexpr (reduction != REDUCTION_MODE_NONE)
    tl::store(loss_ptr, loss_sum * scale);
}
