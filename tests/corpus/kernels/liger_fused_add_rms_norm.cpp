// Fused residual add + RMSNorm, forward and backward, ported from Liger-Kernel
// (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/fused_add_rms_norm.py:
// _fused_add_rms_norm_forward_kernel, _fused_add_rms_norm_backward_kernel; BSD 2-Clause
// licence). Forward, one row per program: S = X + R (stored: the new residual), then
// Y = S * rstd(S) * (offset + W), rstd stored per row. Backward, each program walks
// rows_per_program rows: dX = rstd * m - rstd^3 / n * sum(m * S) * S (+ dS_out), m = dY * (W +
// offset), and its partial dW row (the host sums them). BLOCK_SIZE is the row length rounded up
// to a power of two; the casting modes are Hugging Face's llama / gemma / none.
//
// What differs from the original, and why:
// - `_CASTING_MODE_*` (a leading underscore and a capital is reserved in C++) are
//   CASTING_MODE_* here.
// - The forward re-types S_row (and for gemma W_row) to float inside `if casting_mode == ...`
//   blocks and then runs one common sequence. A C++ variable keeps its type, and the translator
//   cannot follow a type computed from the mode (std::conditional_t is refused: "element type
//   'C' depends on template parameters through a type computation"), so the forward has one
//   block for "none" (computing in T) and one for llama / gemma (in float); each holds the
//   original's statements in order.
// - Triton promotes a bf16 / fp16 tile combined with a float32 scalar *argument* (offset) to
//   float32; a tilec tile keeps its own type with a scalar. Where the original relies on that
//   promotion (offset + W_row, and S_row * rstd in "none") the tile is cast to float first, so
//   that the values are Triton's.
// - RSTD is float in every mode (the original stores it in X's dtype for "none").
// - "none" divides the T sum by n_cols as the original does; Triton divides a 16-bit float in
//   float32, and so do tilec's interpreter and a kernel written for tl::bfloat16, but the CUDA
//   translated for a template T = tl::bfloat16 / tl::half currently divides in T (reported
//   with the port), so that mean square may differ from the interpreter's in its last bits.
// - W_row_stride is unused, as in the original. The backward's X_dtype constexpr is the element
//   type template parameter X_dtype, which also types the tensors (S, dY, dX, dS_out, W).
// - Python's min() of scalars is tl::minimum; `range(row_start, row_end)` is tl::range.
#include <tilec/tl.h>

constexpr int CASTING_MODE_NONE = -1;
constexpr int CASTING_MODE_LLAMA = 0;
constexpr int CASTING_MODE_GEMMA = 1;

template <class T, int casting_mode, int BLOCK_SIZE>
TILEC_KERNEL void fused_add_rms_norm_forward_kernel(
    T *Y_ptr, int Y_row_stride, T *S_ptr,                               // output residual
    int S_row_stride, const T *X_ptr, int X_row_stride, const T *R_ptr, // input residual
    int R_row_stride, const T *W_ptr, [[maybe_unused]] int W_row_stride, float *RSTD_ptr,
    int RSTD_row_stride, int n_cols, float eps, float offset) {
  // hidden_states = residual + hidden_states; residual = hidden_states;
  // hidden_states = rmsnorm(hidden_states), as decoder layers do it
  int64_t row_idx = tl::program_id(0);
  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  Y_ptr += row_idx * Y_row_stride;
  S_ptr += row_idx * S_row_stride;
  X_ptr += row_idx * X_row_stride;
  R_ptr += row_idx * R_row_stride;
  RSTD_ptr += row_idx * RSTD_row_stride;

  auto X_row = tl::load(X_ptr + col_offsets, mask, 0);
  auto R_row = tl::load(R_ptr + col_offsets, mask, 0);
  auto S_row = X_row + R_row;
  tl::store(S_ptr + col_offsets, S_row, mask);
  auto W_row = tl::load(W_ptr + col_offsets, mask, 0);

  if constexpr (casting_mode == CASTING_MODE_NONE) {
    // none: no casts; eps and offset in the row's type
    T eps_t = T(eps);
    T offset_t = T(offset);

    float mean_square = tl::sum<0>(S_row * S_row) / n_cols;
    float rstd = tl::rsqrt(mean_square + eps_t);

    // rstd is kept per row: a float per row saves the sum, the division and the sqrt later
    tl::store(RSTD_ptr, rstd);

    auto S_normed = tl::cast<float>(S_row) * rstd;
    auto Y_row = S_normed * (offset_t + W_row);
    tl::store(Y_ptr + col_offsets, Y_row, mask);
  } else {
    // llama: only rstd in float; gemma: everything in float, the output cast back at the end
    auto S_row_f = tl::cast<float>(S_row);

    // float scalars (Inductor may pass doubles)
    float eps_f = eps;
    float offset_f = offset;

    float mean_square = tl::sum<0>(S_row_f * S_row_f) / n_cols;
    float rstd = tl::rsqrt(mean_square + eps_f);

    tl::store(RSTD_ptr, rstd);

    S_row_f = S_row_f * rstd;

    if constexpr (casting_mode == CASTING_MODE_LLAMA) {
      // llama: the weight multiplies the row in its original type
      auto S_row_t = tl::cast<T>(S_row_f);
      auto Y_row = S_row_t * (offset_f + tl::cast<float>(W_row));
      tl::store(Y_ptr + col_offsets, Y_row, mask);
    } else {
      auto W_row_f = tl::cast<float>(W_row);
      auto Y_row = S_row_f * (offset_f + W_row_f);
      tl::store(Y_ptr + col_offsets, tl::cast<T>(Y_row), mask);
    }
  }
}

template <class X_dtype, int rows_per_program, int casting_mode, int BLOCK_SIZE, bool has_dS_out>
TILEC_KERNEL void fused_add_rms_norm_backward_kernel(
    const X_dtype *dY_ptr, int dY_row_stride, const X_dtype *dS_out_ptr, int dS_out_row_stride,
    X_dtype *dX_ptr, int dX_row_stride, const X_dtype *X_ptr, int X_row_stride,
    const X_dtype *W_ptr, [[maybe_unused]] int W_row_stride, const float *RSTD_ptr,
    int RSTD_row_stride, float *dW_ptr, int dW_row_stride, int n_rows, int n_cols, float offset) {
  // The gradients of hidden_states and of the residual are the same: rmsnorm's dX plus the
  // residual's dS_out. dW is accumulated before dX, and dX is rstd * m + c * X with a scalar
  // c, to keep few rows live.
  int64_t row_block_id = tl::program_id(0);
  int64_t row_start = row_block_id * rows_per_program;
  int64_t row_end = tl::minimum((row_block_id + 1) * rows_per_program, n_rows);
  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  auto dW_row = tl::zeros<float, BLOCK_SIZE>();

  // W + offset: Triton promotes the row to float with the float offset
  auto W_row = tl::cast<float>(tl::load(W_ptr + col_offsets, mask, 0.0f));
  W_row = W_row + offset;

  for (int64_t row_idx : tl::range(row_start, row_end)) {
    auto dy_base = dY_ptr + row_idx * dY_row_stride;
    auto dx_base = dX_ptr + row_idx * dX_row_stride;
    auto x_base = X_ptr + row_idx * X_row_stride;
    auto rstd_base = RSTD_ptr + row_idx * RSTD_row_stride;

    auto dY_row = tl::load(dy_base + col_offsets, mask, 0.0f);
    auto X_row = tl::load(x_base + col_offsets, mask, 0.0f);
    float rstd_row = tl::load(rstd_base);

    auto X_row_f = tl::cast<float>(X_row);

    // dW first: fewer rows live at once
    if constexpr (casting_mode == CASTING_MODE_LLAMA)
      dW_row += dY_row * tl::cast<X_dtype>(X_row_f * rstd_row);
    else
      dW_row += dY_row * (X_row_f * rstd_row); // X_row_f is float already

    // each mode's backward graph
    auto m = tl::zeros<float, BLOCK_SIZE>();
    if constexpr (casting_mode == CASTING_MODE_LLAMA) {
      m = tl::cast<float>(dY_row * W_row);
    } else if constexpr (casting_mode == CASTING_MODE_GEMMA) {
      auto dY_row_f = tl::cast<float>(dY_row);
      m = dY_row_f * W_row;
    } else {
      m = dY_row * W_row;
    }

    // dX = rstd * m - (rstd^3 / n_cols) * dot(m, X) * X + dS_out
    float dot = tl::sum<0>(m * X_row_f);
    float c = -(1.0f / n_cols) * rstd_row * rstd_row * rstd_row * dot;
    auto dX_row = rstd_row * m + c * X_row_f;

    if constexpr (has_dS_out) {
      auto ds_base = dS_out_ptr + row_idx * dS_out_row_stride;
      auto dS_out_row = tl::load(ds_base + col_offsets, mask, 0.0f);
      dX_row += dS_out_row;
    }

    tl::store(dx_base + col_offsets, tl::cast<X_dtype>(dX_row), mask);
  }

  tl::store(dW_ptr + row_block_id * dW_row_stride + col_offsets, dW_row, mask);
}
