// SwiGLU forward and backward, ported from Liger-Kernel (github.com/linkedin/Liger-Kernel,
// src/liger_kernel/ops/swiglu.py: silu, _swiglu_forward_kernel, _swiglu_backward_kernel;
// BSD 2-Clause licence). c = silu(a * gate_multiplier) * b row by row, one row per program,
// BLOCK_SIZE the row length rounded up to a power of two; the backward pass recomputes silu
// and writes da and db over a and b.
#include <tilec/tl.h>

TILEC_FUNC auto silu(auto x) { return x * tl::sigmoid(x); }

template <class T, int n_cols, int BLOCK_SIZE>
TILEC_KERNEL void swiglu_forward_kernel(T *a_ptr, T *b_ptr, T *c_ptr, int stride,
                                        float gate_multiplier) {
  int64_t program_id = tl::program_id(0);

  // locate start index
  a_ptr += program_id * stride;
  b_ptr += program_id * stride;
  c_ptr += program_id * stride;

  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  // sigmoid in float
  auto a_row = tl::cast<float>(tl::load(a_ptr + col_offsets, mask, 0)) * gate_multiplier;
  auto b_row = tl::load(b_ptr + col_offsets, mask, 0);
  auto c_row = tl::cast<T>(silu(a_row)) * b_row;
  tl::store(c_ptr + col_offsets, c_row, mask);
}

template <class T, int n_cols, int BLOCK_SIZE>
TILEC_KERNEL void swiglu_backward_kernel(T *dc_ptr, T *a_ptr, T *b_ptr, int stride,
                                         float gate_multiplier) {
  int64_t program_id = tl::program_id(0);

  // locate start index
  dc_ptr += program_id * stride;
  a_ptr += program_id * stride;
  b_ptr += program_id * stride;

  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  auto dc_row = tl::load(dc_ptr + col_offsets, mask, 0);
  auto a_row = tl::cast<float>(tl::load(a_ptr + col_offsets, mask, 0)) * gate_multiplier;
  auto b_row = tl::load(b_ptr + col_offsets, mask, 0);

  // recomputed rather than saved: a_row already holds a * gate_multiplier
  auto sig_a = tl::sigmoid(a_row);
  auto silu_a = a_row * sig_a;
  auto db_row = dc_row * silu_a;
  auto da_row = dc_row * (silu_a * (1 - sig_a) + sig_a) * b_row * gate_multiplier;

  tl::store(a_ptr + col_offsets, da_row, mask);
  tl::store(b_ptr + col_offsets, db_row, mask);
}
