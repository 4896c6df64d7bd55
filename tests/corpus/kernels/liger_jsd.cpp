// Generalized Jensen-Shannon divergence, ported from Liger-Kernel
// (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/jsd.py: _jsd_kernel; BSD 2-Clause
// licence). One row per program, walked in BLOCK_SIZE chunks: the per-element loss (float) and
// the gradient with respect to the input are written for every element; a row whose label is
// ignore_index gets a zero gradient and returns early.
//
// What differs from the originals, and why:
// - JSD's beta is a float tl.constexpr there; C++17 (NVRTC) has no float template parameters,
//   so it is a float argument, and the three-way `if beta == 0.0 / elif beta == 1.0 / else`
//   (resolved at compile time by Triton) is a run-time branch on that argument here. Because
//   the branches assign tiles that the code after them reads, loss and dX are declared before
//   the branch (C++ needs a declaration in the enclosing scope).
// - The labels are int64 (torch's shift_labels is a LongTensor); the original passes a dummy
//   float tensor when there are no labels, here that is a null pointer never read.
// - Python's `x.to(tl.float32)` is tl::cast<float>; `float("-inf")` is -INFINITY.
// - Nothing else was left out: the host code (the sum of the loss, n_non_ignore, the backward
//   pass's multiplication by grad_output) is Python-side and stays with the caller.
#include <tilec/tl.h>

template <class T, int ignore_index, int BLOCK_SIZE, bool HAS_LABEL>
TILEC_KERNEL void jsd_kernel(const T *X_ptr, // input in log space, X = log Q
                             int X_stride,
                             const T *Y_ptr, // ground truth in log space, Y = log P
                             int Y_stride, float *loss_ptr, int loss_stride, T *dX_ptr,
                             int dX_stride, const int64_t *label_ptr, float beta, int n_non_ignore,
                             int n_cols) {
  // JSD_beta(P || Q) = beta * KL(P || M) + (1 - beta) * KL(Q || M), M = beta P + (1 - beta) Q
  //   = sum(beta P Y + (1 - beta) Q X - M log M)
  // d/dX = (1 - beta) Q (X - log M)
  int64_t pid = tl::program_id(0);
  X_ptr += pid * X_stride;
  dX_ptr += pid * dX_stride;
  Y_ptr += pid * Y_stride;
  loss_ptr += pid * loss_stride;
  label_ptr += pid;

  if constexpr (HAS_LABEL) {
    int64_t label = tl::load(label_ptr);
    if (label == ignore_index) {
      for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
        auto offsets = i + tl::arange<0, BLOCK_SIZE>();
        tl::store(dX_ptr + offsets, 0.0f, offsets < n_cols);
      }
      return;
    }
  }

  for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto offsets = i + tl::arange<0, BLOCK_SIZE>();
    auto mask = offsets < n_cols;
    auto X = tl::cast<float>(tl::load(X_ptr + offsets, mask, -INFINITY));
    auto Y = tl::cast<float>(tl::load(Y_ptr + offsets, mask, -INFINITY));

    auto loss = tl::zeros<float, BLOCK_SIZE>();
    auto dX = tl::zeros<float, BLOCK_SIZE>();
    if (beta == 0.0f) { // forward KL
      float Y_max = tl::max<0>(Y);
      auto Y_shifted = Y - Y_max;
      auto Y_prob = tl::exp(Y_shifted) * tl::exp(Y_max); // undo the shift
      loss = Y_prob * (Y - X);
      dX = -Y_prob;
    } else if (beta == 1.0f) { // reverse KL
      float X_max = tl::max<0>(X);
      auto X_shifted = X - X_max;
      auto X_prob = tl::exp(X_shifted) * tl::exp(X_max); // undo the shift
      loss = X_prob * (X - Y);
      dX = loss + X_prob;
    } else {
      float max_val = tl::maximum(tl::max<0>(X), tl::max<0>(Y));
      auto X_shifted = X - max_val;
      auto Y_shifted = Y - max_val;

      // exp(max_val) once, for both
      float exp_max = tl::exp(max_val);

      // exp(X) and exp(Y), each shifted and scaled back
      auto Q = tl::exp(X_shifted) * exp_max;
      auto P = tl::exp(Y_shifted) * exp_max;

      auto beta_P = beta * P;
      auto one_minus_beta_Q = (1 - beta) * Q;
      auto M = beta_P + one_minus_beta_Q;
      auto log_M = tl::log(M); // M is already unshifted

      loss = beta_P * Y + one_minus_beta_Q * X - M * log_M;
      dX = one_minus_beta_Q * (X - log_M);
    }

    // the 1 / n_non_ignore of the mean, folded in here
    float scale = 1.0f / n_non_ignore;
    loss = loss * scale;
    dX = dX * scale;

    tl::store(loss_ptr + offsets, loss, mask);
    tl::store(dX_ptr + offsets, dX, mask);
  }
}
