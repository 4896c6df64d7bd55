// GEGLU (tanh-approximated GELU) forward and backward, ported from Liger-Kernel
// (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/geglu.py: _geglu_tanh_forward_kernel,
// _geglu_tanh_backward_kernel; BSD 2-Clause licence). c = gelu_tanh(a) * b row by row, one row
// per program, BLOCK_SIZE the row length rounded up to a power of two; the backward pass
// writes da and db over a and b.
#include <tilec/tl.h>

template <class T, int n_cols, int BLOCK_SIZE>
TILEC_KERNEL void geglu_tanh_forward_kernel(T *a, T *b, T *c, int stride) {
  int64_t program_id = tl::program_id(0);

  // locate start index
  a += program_id * stride;
  b += program_id * stride;
  c += program_id * stride;

  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  auto a_row = tl::cast<float>(tl::load(a + col_offsets, mask, 0));
  auto b_row = tl::load(b + col_offsets, mask, 0);

  // 0.5 * a * (1 + tanh(sqrt(2 / pi) * (a + 0.044715 * a^3)))
  const float sqrt_2_over_pi = 0.7978845608028654f;
  auto a_cubed = a_row * a_row * a_row;
  auto tanh_arg = sqrt_2_over_pi * (a_row + 0.044715f * a_cubed);
  auto tanh_result = tl::tanh(tanh_arg);
  auto geglu_a = 0.5f * a_row * (1 + tanh_result);
  auto c_row = tl::cast<T>(geglu_a) * b_row;
  tl::store(c + col_offsets, c_row, mask);
}

template <class T, int n_cols, int BLOCK_SIZE>
TILEC_KERNEL void geglu_tanh_backward_kernel(T *dc, T *a, T *b, int stride) {
  int64_t program_id = tl::program_id(0);

  // locate start index
  dc += program_id * stride;
  a += program_id * stride;
  b += program_id * stride;

  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;

  auto dc_row = tl::load(dc + col_offsets, mask, 0);
  auto a_row = tl::cast<float>(tl::load(a + col_offsets, mask, 0));
  auto b_row = tl::load(b + col_offsets, mask, 0);

  // recomputed rather than saved
  const float sqrt_2_over_pi = 0.7978845608028654f;
  auto a_cubed = a_row * a_row * a_row;
  auto tanh_arg = sqrt_2_over_pi * (a_row + 0.044715f * a_cubed);
  auto tanh_result = tl::tanh(tanh_arg);
  auto geglu_a = 0.5f * a_row * (1 + tanh_result);
  geglu_a = tl::cast<float>(tl::cast<T>(geglu_a));

  auto db_row = tl::cast<float>(dc_row) * geglu_a;

  // b * (0.5 * (1 + tanh(z)) + 0.5 * a * (1 - tanh(z)^2) * (sqrt(2/pi) * (1 + 3 * 0.044715 * a^2)))
  auto term1 = 0.5f * (1 + tanh_result);
  auto tanh_sq = tanh_result * tanh_result;
  auto term2 = 0.5f * a_row * (1 - tanh_sq) * (sqrt_2_over_pi * (1 + 3 * 0.044715f * a_row * a_row));
  auto da_row = dc_row * b_row * (term1 + term2);

  tl::store(a + col_offsets, da_row, mask);
  tl::store(b + col_offsets, tl::cast<T>(db_row), mask);
}
