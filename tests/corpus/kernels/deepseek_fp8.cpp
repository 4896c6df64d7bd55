// Block-wise fp8 quantization, ported from DeepSeek-V3 (github.com/deepseek-ai/DeepSeek-V3,
// inference/kernel.py: act_quant_kernel, weight_dequant_kernel, weight_quant_kernel; MIT
// licence). The file's GEMM is in deepseek_fp8_gemm.cpp: a tl::dot of fp8 operands needs sm_89
// or newer, these kernels do not.
//
// act_quant: each BLOCK_SIZE run of x (bfloat16) gets one float scale s = max|x| / 448 (the
// largest e4m3 value) and is stored as x / s in e4m3. weight_quant / weight_dequant: the same
// per BLOCK_SIZE x BLOCK_SIZE square of an [M, N] weight, scales [cdiv(M, B), cdiv(N, B)].
//
// Differences from the original: element types are template parameters (the original reads
// them from the pointers, and dequantizes to torch's default dtype). Like the original, the
// quantizers divide by s with no guard for an all-zero block (0 / 0: NaN).
#include <tilec/tl.h>

template <class TX, class TY, int BLOCK_SIZE>
TILEC_KERNEL void act_quant_kernel(const TX *x_ptr, TY *y_ptr, float *s_ptr) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto x = tl::cast<float>(tl::load(x_ptr + offs));
  float s = tl::max(tl::abs(x)) / 448.0f;
  auto y = x / s;
  tl::store(y_ptr + offs, tl::cast<TY>(y));
  tl::store(s_ptr + pid, s);
}

template <class TX, class TY, int BLOCK_SIZE>
TILEC_KERNEL void weight_dequant_kernel(const TX *x_ptr, const float *s_ptr, TY *y_ptr, int M,
                                        int N) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  int n = tl::cdiv(N, BLOCK_SIZE);
  auto offs_m = pid_m * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto offs_n = pid_n * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto offs = tl::expand_dims<1>(offs_m) * N + tl::expand_dims<0>(offs_n);
  auto mask = (tl::expand_dims<1>(offs_m) < M) & (tl::expand_dims<0>(offs_n) < N);
  auto x = tl::cast<float>(tl::load(x_ptr + offs, mask));
  float s = tl::load(s_ptr + pid_m * n + pid_n);
  auto y = x * s;
  tl::store(y_ptr + offs, tl::cast<TY>(y), mask);
}

template <class TX, class TY, int BLOCK_SIZE>
TILEC_KERNEL void weight_quant_kernel(const TX *x_ptr, TY *y_ptr, float *s_ptr, int M, int N) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  int n = tl::cdiv(N, BLOCK_SIZE);
  auto offs_m = pid_m * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto offs_n = pid_n * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto offs = tl::expand_dims<1>(offs_m) * N + tl::expand_dims<0>(offs_n);
  auto mask = (tl::expand_dims<1>(offs_m) < M) & (tl::expand_dims<0>(offs_n) < N);
  auto x = tl::cast<float>(tl::load(x_ptr + offs, mask));
  float max_val = tl::max(tl::abs(x));
  float s = max_val / 448.0f;
  auto y = x / s;
  tl::store(y_ptr + offs, tl::cast<TY>(y), mask);
  tl::store(s_ptr + pid_m * n + pid_n, s);
}
