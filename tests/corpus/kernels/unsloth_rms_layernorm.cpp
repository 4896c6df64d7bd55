// RMS LayerNorm forward (Llama and Gemma flavours) and backward, ported from Unsloth
// (github.com/unslothai/unsloth, unsloth/kernels/rms_layernorm.py: _rms_layernorm_forward,
// _rms_layernorm_backward, _gemma_rms_layernorm_forward; Apache License 2.0, copyright Daniel
// Han-Chen and the Unsloth team). One row per program. Forward: r = 1 / sqrt(mean(x^2) + eps)
// per row, y = T(x * r) * w (Llama, as Hugging Face rounds) or y = x * r * (w + 1) in float
// (Gemma). Backward: dx = r / n * (n * dy_w - normed * sum(dy_w * normed)), dy_w = dy * w
// (or dy * (w + 1) for Gemma), written over dY unless GEMMA.
//
// What differs from the original, and why:
// - eps is a float tl.constexpr there; C++17 has no float template parameters, so it is a
//   float argument (unused by the backward, as in the original). The row strides and n_cols
//   are tl.constexpr there too, so they are int template parameters here, in their order.
// - `tl.full((), eps, tl.float32)`, a rank-0 tensor, has no tilec spelling (tl::full needs a
//   shape); a float scalar is the same value.
// - `normed.to(W_row.dtype)` re-types the variable; C++ needs a new one, and the translator
//   cannot follow `decltype(W_row)::element_type`, so the cast names W's element type T.
// - The backward's `if GEMMA: dY_W = ...; else: dY_W = ...` defines dY_W in both branches;
//   C++ declares it first.
// - The original wraps the backward in triton.heuristics({"GEMMA": lambda args:
//   bool(args["GEMMA"])}), which only turns the caller's value into a bool; tilec's heuristics
//   cannot read the value the call gives for the parameter they set ("parameter 'GEMMA' of the
//   heuristic is not known yet when the heuristic runs"), and GEMMA is a bool template
//   parameter already, so it is left out.
#include <tilec/tl.h>

template <class T, int Y_row_stride, int X_row_stride, int W_row_stride, int r_row_stride,
          int n_cols, int BLOCK_SIZE>
TILEC_KERNEL void rms_layernorm_forward(T *Y, const T *X, const T *W, float *r, float eps) {
  // after Triton's layer norm tutorial
  int row_idx = tl::program_id(0);
  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  Y += row_idx * Y_row_stride;
  X += row_idx * X_row_stride;
  r += row_idx * r_row_stride;

  auto X_row = tl::cast<float>(tl::load(X + col_offsets, mask, 0));
  auto W_row = tl::load(W + col_offsets, mask, 0);

  float row_var = tl::sum<0>(X_row * X_row) / n_cols;
  // eps as a float32 scalar (the original's rank-0 tl.full, for ROCm's promotion)
  float eps_f32 = eps;
  float inv_var = tl::rsqrt(row_var + eps_f32);
  tl::store(r, inv_var);
  auto normed = X_row * inv_var;
  auto normed_w = tl::cast<T>(normed); // rounded to W's type first, as Hugging Face does
  auto output = normed_w * W_row;
  tl::store(Y + col_offsets, output, mask);
}

template <class T, int dY_row_stride, int dX_row_stride, int X_row_stride, int W_row_stride,
          int r_row_stride, int n_cols, bool GEMMA, int BLOCK_SIZE>
TILEC_KERNEL void rms_layernorm_backward(T *dY, T *dX, const T *X, const T *W, const float *r,
                                         [[maybe_unused]] float eps) {
  // after Triton's layer norm tutorial
  int row_idx = tl::program_id(0);
  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  dY += row_idx * dY_row_stride;
  X += row_idx * X_row_stride;
  r += row_idx * r_row_stride;

  if constexpr (GEMMA)
    dX += row_idx * dY_row_stride;
  else
    dX = dY;

  auto dY_row = tl::cast<float>(tl::load(dY + col_offsets, mask, 0));
  auto X_row = tl::cast<float>(tl::load(X + col_offsets, mask, 0));
  auto W_row = tl::cast<float>(tl::load(W + col_offsets, mask, 0));

  // the row's saved 1 / rms
  float inv_var = tl::cast<float>(tl::load(r));
  auto normed = X_row * inv_var;

  auto dY_W = tl::zeros_like(dY_row);
  if constexpr (GEMMA)
    dY_W = dY_row * (W_row + 1.0f);
  else
    dY_W = dY_row * W_row;

  float rowsum_dY_normed = tl::sum<0>(dY_W * normed);
  auto output = inv_var / n_cols * (n_cols * dY_W - normed * rowsum_dY_normed);
  tl::store(dX + col_offsets, output, mask);
}

template <class T, int Y_row_stride, int X_row_stride, int W_row_stride, int r_row_stride,
          int n_cols, int BLOCK_SIZE>
TILEC_KERNEL void gemma_rms_layernorm_forward(T *Y, const T *X, const T *W, float *r, float eps) {
  // Gemma's reference (gemma/layers.py, keras_nlp's RMSNormalization), all in float32
  int row_idx = tl::program_id(0);
  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  Y += row_idx * Y_row_stride;
  X += row_idx * X_row_stride;
  r += row_idx * r_row_stride;

  auto X_row = tl::cast<float>(tl::load(X + col_offsets, mask, 0));
  auto W_row = tl::cast<float>(tl::load(W + col_offsets, mask, 0));

  float row_var = tl::sum<0>(X_row * X_row) / n_cols;
  // eps as a float32 scalar (the original's rank-0 tl.full, for ROCm's promotion)
  float eps_f32 = eps;
  float inv_var = tl::rsqrt(row_var + eps_f32);
  tl::store(r, inv_var);
  auto normed = X_row * inv_var;
  auto output = normed * (W_row + 1.0f);

  tl::store(Y + col_offsets, output, mask);
}
