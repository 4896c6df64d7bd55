// Per-token-group fp8 quantization, ported from vLLM (github.com/vllm-project/vllm,
// vllm/model_executor/layers/quantization/utils/fp8_utils.py: _per_token_group_quant_fp8,
// _per_token_group_quant_fp8_colmajor, _silu_mul_per_token_group_quant_fp8_colmajor; Apache
// License 2.0). Each group of group_size consecutive elements of a row gets one float scale,
// max(max|y|, eps) / fp8_max (rounded up to a power of two when use_ue8m0, DeepGEMM's e8m0
// scales), and is stored as y / scale clamped to [fp8_min, fp8_max] in fp8. The scales are
// row-major ([rows, groups]) or column-major (their transpose, y_s_col_stride apart). The
// fused variant computes silu(a) * b from an [M, N] input's two halves first, BLOCK_M rows by
// one group per program, in blocks that divide the input exactly (the original asserts it).
//
// What differs from the originals, and why:
// - Element types are template parameters (the originals read them from the pointers).
// - `use_ue8m0` and the Python conditional expression on it are kept; `tl.reshape(y_s,
//   (BLOCK_M, 1))` and back are tl::reshape.
#include <tilec/tl.h>

template <class T, class TQ, bool use_ue8m0, int BLOCK>
TILEC_KERNEL void per_token_group_quant_fp8(const T *y_ptr, TQ *y_q_ptr, float *y_s_ptr,
                                            int group_size, int y_num_columns, int y_row_stride,
                                            float eps, float fp8_min, float fp8_max) {
  int groups_per_row = y_num_columns / group_size;

  // The program's group: its row and its place in the row.
  int g_id = tl::program_id(0);
  int row = g_id / groups_per_row;
  int row_g_id = g_id % groups_per_row;

  // Offsets in int64, as the original, against overflow.
  int64_t y_ptr_offset = int64_t(row) * y_row_stride + int64_t(row_g_id) * group_size;
  y_ptr += y_ptr_offset;

  int64_t y_q_ptr_offset = int64_t(g_id) * group_size;
  y_q_ptr += y_q_ptr_offset;
  y_s_ptr += g_id;

  auto cols = tl::arange<0, BLOCK>(); // group_size <= BLOCK
  auto mask = cols < group_size;

  auto y = tl::cast<float>(tl::load(y_ptr + cols, mask, 0.0f));
  float absmax = tl::maximum(tl::max(tl::abs(y)), eps);
  float scale_raw = absmax / fp8_max;
  float y_s = use_ue8m0 ? tl::exp2(tl::ceil(tl::log2(scale_raw))) : scale_raw;
  auto y_q = tl::cast<TQ>(tl::clamp(y / y_s, fp8_min, fp8_max));

  tl::store(y_q_ptr + cols, y_q, mask);
  tl::store(y_s_ptr, y_s);
}

template <class T, class TQ, bool use_ue8m0, int BLOCK>
TILEC_KERNEL void per_token_group_quant_fp8_colmajor(const T *y_ptr, TQ *y_q_ptr, float *y_s_ptr,
                                                     int group_size, int y_num_columns,
                                                     int y_row_stride, int y_s_col_stride,
                                                     float eps, float fp8_min, float fp8_max) {
  int groups_per_row = y_num_columns / group_size;

  int g_id = tl::program_id(0);
  int row = g_id / groups_per_row;
  int row_g_id = g_id % groups_per_row;

  int64_t y_ptr_offset = int64_t(row) * y_row_stride + int64_t(row_g_id) * group_size;
  y_ptr += y_ptr_offset;

  int64_t y_q_ptr_offset = int64_t(g_id) * group_size;
  y_q_ptr += y_q_ptr_offset;

  // The scale's place in the column-major [rows, groups] matrix.
  int blocks_per_row = y_num_columns / group_size;
  int scale_col = g_id % blocks_per_row;
  int scale_row = g_id / blocks_per_row;
  int64_t y_s_ptr_offset = int64_t(scale_col) * y_s_col_stride + int64_t(scale_row);
  y_s_ptr += y_s_ptr_offset;

  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < group_size;

  auto y = tl::cast<float>(tl::load(y_ptr + cols, mask, 0.0f));
  float absmax = tl::maximum(tl::max(tl::abs(y)), eps);
  float scale_raw = absmax / fp8_max;
  float y_s = use_ue8m0 ? tl::exp2(tl::ceil(tl::log2(scale_raw))) : scale_raw;
  auto y_q = tl::cast<TQ>(tl::clamp(y / y_s, fp8_min, fp8_max));

  tl::store(y_q_ptr + cols, y_q, mask);
  tl::store(y_s_ptr, y_s);
}

template <class T, class TQ, bool use_ue8m0, int GROUP_SIZE, int BLOCK_M, int BLOCK_N>
TILEC_KERNEL void silu_mul_per_token_group_quant_fp8_colmajor(
    const T *y_ptr,  // [M, N]
    TQ *y_q_ptr,     // [M, N / 2]
    float *y_s_ptr,  // [M, (N / 2) / GROUP_SIZE], column-major
    int M, int N, int64_t y_s_col_stride, float eps, float fp8_min, float fp8_max) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  int N_2 = N / 2;

  int m_offset = pid_m * BLOCK_M;
  int n_offset = pid_n * BLOCK_N;
  if (m_offset >= M)
    return;

  auto offs_n = tl::cast<int64_t>(tl::arange<0, BLOCK_N>());
  auto offs_m = tl::cast<int64_t>(tl::arange<0, BLOCK_M>());

  const T *base_y_ptr = y_ptr + m_offset * N + n_offset;
  auto act_in_ptrs = base_y_ptr + tl::expand_dims<1>(offs_m) * N + tl::expand_dims<0>(offs_n);

  auto act_in = tl::load(act_in_ptrs);
  auto mul_in = tl::load(act_in_ptrs + N_2);

  // silu, then the product, each rounded to T as the original's
  auto act = tl::cast<float>(act_in);
  float one_f32 = 1.0f;
  auto silu_out = tl::cast<T>(act / (one_f32 + tl::exp(-act)));
  auto y = tl::cast<float>(silu_out * mul_in);

  // quant
  auto absmax = tl::maximum(tl::max<1>(tl::abs(y)), eps);
  auto scale_raw = absmax / fp8_max;
  auto y_s = use_ue8m0 ? tl::exp2(tl::ceil(tl::log2(scale_raw))) : scale_raw;
  auto y_s_col = tl::reshape<BLOCK_M, 1>(y_s);
  auto y_q = tl::cast<TQ>(tl::clamp(y / y_s_col, fp8_min, fp8_max));

  TQ *base_y_q_ptr = y_q_ptr + m_offset * N_2 + n_offset;
  auto y_q_ptrs = base_y_q_ptr + tl::expand_dims<1>(offs_m) * N_2 + tl::expand_dims<0>(offs_n);
  tl::store(y_q_ptrs, y_q);

  int group_id = n_offset / GROUP_SIZE;
  float *base_y_s_ptr = y_s_ptr + group_id * y_s_col_stride + m_offset;
  auto y_s_ptrs = base_y_s_ptr + offs_m;
  tl::store(y_s_ptrs, tl::reshape<BLOCK_M>(y_s_col));
}
