// Fused cross-entropy loss and gradient, ported from Liger-Kernel
// (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/cross_entropy.py:
// liger_cross_entropy_kernel; BSD 2-Clause licence). One program per row of logits: an online
// softmax pass finds the max and the sum, a second pass writes the gradient over the logits in
// place, then the target's element is overwritten with its own gradient and the row's loss
// stored. The original's label smoothing and z-loss are kept; class weights, soft-capping and
// the accuracy outputs (off by default there) are left out. Its lse_square_scale and
// label_smoothing are float constexprs, which C++17 templates cannot hold: they are arguments.
#include <tilec/tl.h>

// log2(e): exp(x) as exp2(x * LOG2_E), the hardware's ex2 instruction
constexpr float LOG2_E = 1.4426950408889634f;

constexpr int REDUCTION_SUM = 0;
constexpr int REDUCTION_MEAN = 1;

template <class T, int reduction, int BLOCK_SIZE>
TILEC_KERNEL void liger_cross_entropy_kernel(T *X_ptr, int64_t X_stride, const int64_t *Y_ptr,
                                             int Y_stride, T *loss_ptr, int loss_stride,
                                             int n_cols, int n_non_ignore, int ignore_index,
                                             float lse_square_scale, float label_smoothing) {
  // program_id * X_stride overflows int32 for large B*T*V
  int64_t program_id = tl::program_id(0);

  // 1. the target first: an ignored row returns at once
  Y_ptr += program_id * Y_stride;
  int64_t y = tl::load(Y_ptr);

  // 2. locate the start index
  X_ptr += program_id * X_stride;

  if (y == ignore_index) {
    for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
      auto X_offsets = i + tl::arange<0, BLOCK_SIZE>();
      tl::store(X_ptr + X_offsets, 0.0f, X_offsets < n_cols);
    }
    return;
  }

  loss_ptr += program_id * loss_stride;

  // 3. online softmax, first pass: max and sum (arXiv 1805.02867, algorithm 3)
  float m = -INFINITY;
  float d = 0.0f;
  float ori_X_y = tl::cast<float>(tl::load(X_ptr + y));

  float scaled_x_sum = 0.0f;
  float eps = label_smoothing / n_cols;

  for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto X_offsets = i + tl::arange<0, BLOCK_SIZE>();
    auto X_block = tl::cast<float>(tl::load(X_ptr + X_offsets, X_offsets < n_cols, -INFINITY));
    float block_max = tl::max(X_block);
    if (label_smoothing > 0) {
      // scaled before summing, against overflow
      scaled_x_sum += tl::sum(tl::where(X_offsets < n_cols, -eps * X_block, 0.0f));
    }
    float m_new = tl::maximum(m, block_max);
    d = d * tl::exp2((m - m_new) * LOG2_E) + tl::sum(tl::exp2((X_block - m_new) * LOG2_E));
    m = m_new;
  }

  // log(sum(e^x)) = m + log(d)
  float lse = m + tl::log(d);

  // 4. second pass: the gradient, written over the logits
  // dx_i = ((1 + 2 * lse_square_scale * lse) * softmax(x_i) - label_smoothing / V) / N
  for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto X_offsets = i + tl::arange<0, BLOCK_SIZE>();
    auto X_block = tl::cast<float>(tl::load(X_ptr + X_offsets, X_offsets < n_cols, -INFINITY));
    X_block = tl::exp2((X_block - m) * LOG2_E) / d;
    X_block += 2 * lse_square_scale * lse * X_block;
    X_block += -eps;
    if constexpr (reduction == REDUCTION_MEAN)
      X_block = X_block / n_non_ignore;
    tl::store(X_ptr + X_offsets, X_block, X_offsets < n_cols);
  }

  // dx_y, recomputed in float and stored over the loop's value: folding -(1 - label_smoothing)
  // in before rounding to T keeps the bits that (softmax(x_y) - 1) would cancel. The barrier
  // keeps the loop's store to X[y] from landing after this one.
  tl::debug_barrier();
  float softmax_X_y = tl::exp2((ori_X_y - m) * LOG2_E) / d;
  float dx_y = softmax_X_y;
  dx_y += 2 * lse_square_scale * lse * dx_y;
  dx_y += -eps;
  dx_y += -(1 - label_smoothing);
  if constexpr (reduction == REDUCTION_MEAN)
    dx_y = dx_y / n_non_ignore;
  tl::store(X_ptr + y, dx_y);

  tl::debug_barrier();

  // 5. the loss: log(softmax(x_y)) = x_y - lse
  float loss = lse - ori_X_y;
  // label smoothing (arXiv 1512.00567, section 7):
  // (1 - label_smoothing) * H(q, p) + sum(-eps * x_i) + label_smoothing * lse
  if (label_smoothing > 0) {
    float smooth_loss = scaled_x_sum + label_smoothing * lse;
    loss = loss * (1 - label_smoothing) + smooth_loss;
  }

  // z-loss (PaLM)
  float z_loss = lse_square_scale * lse * lse;
  if constexpr (reduction == REDUCTION_MEAN) {
    loss = loss / n_non_ignore;
    z_loss = z_loss / n_non_ignore;
  }
  loss += z_loss;

  tl::store(loss_ptr, loss);
}
