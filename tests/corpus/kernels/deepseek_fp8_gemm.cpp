// The fp8 GEMM with per-block scales, ported from DeepSeek-V3
// (github.com/deepseek-ai/DeepSeek-V3, inference/kernel.py: fp8_gemm_kernel and its autotuning
// configs; MIT licence). Its quantizers are in deepseek_fp8.cpp.
//
// C [M, N] = A [M, K] @ B^T, with B [N, K] as torch.nn.Linear stores its weight, A's scales one
// per row and 128-column block ([M, cdiv(K, 128)], from act_quant) and B's one per 128 x 128
// square ([cdiv(N, 128), cdiv(K, 128)], from weight_quant); each K step's product is scaled
// before it is added, as in the original. Rows and columns past M and N wrap around (% M,
// % N) on load, as in the original, and are not stored.
//
// Differences from the original: element types are template parameters (the original's output
// is torch's default dtype); N and K are template parameters, as the original's tl.constexpr
// arguments are; the configs are a subset of its 36 (BLOCK_SIZE_K 128, 8 warps).
#include <tilec/tl.h>

template <class TA, class TC, int N, int K, int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K>
TILEC_KERNEL void fp8_gemm_kernel(const TA *a_ptr, const TA *b_ptr, TC *c_ptr, const float *a_s_ptr,
                                  const float *b_s_ptr, int M) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  int k = tl::cdiv(K, BLOCK_SIZE_K);
  auto offs_m = (pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>()) % M;
  auto offs_n = (pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>()) % N;
  auto offs_k = tl::arange<0, BLOCK_SIZE_K>();
  auto a_ptrs = a_ptr + tl::expand_dims<1>(offs_m) * K + tl::expand_dims<0>(offs_k);
  auto b_ptrs = b_ptr + tl::expand_dims<0>(offs_n) * K + tl::expand_dims<1>(offs_k);
  auto a_s_ptrs = a_s_ptr + offs_m * k;
  auto b_s_ptrs = b_s_ptr + (offs_n / BLOCK_SIZE_K) * k;

  auto accumulator = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  for (int i = 0; i < k; i++) {
    auto a = tl::load(a_ptrs, tl::expand_dims<0>(offs_k) < K - i * BLOCK_SIZE_K, 0.0f);
    auto b = tl::load(b_ptrs, tl::expand_dims<1>(offs_k) < K - i * BLOCK_SIZE_K, 0.0f);
    auto a_s = tl::load(a_s_ptrs);
    auto b_s = tl::load(b_s_ptrs);
    accumulator += tl::dot(a, b) * tl::expand_dims<1>(a_s) * tl::expand_dims<0>(b_s);
    a_ptrs += BLOCK_SIZE_K;
    b_ptrs += BLOCK_SIZE_K;
    a_s_ptrs += 1;
    b_s_ptrs += 1;
  }
  auto c = tl::cast<TC>(accumulator);
  auto offs_cm = pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>();
  auto offs_cn = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
  auto c_ptrs = c_ptr + tl::expand_dims<1>(offs_cm) * N + tl::expand_dims<0>(offs_cn);
  auto mask = (tl::expand_dims<1>(offs_cm) < M) & (tl::expand_dims<0>(offs_cn) < N);
  tl::store(c_ptrs, c, mask);
}

// From the original's autotuning space: BLOCK_SIZE_K 128 (one scale per step), 8 warps.
TILEC_AUTOTUNE(fp8_gemm_kernel) = {
    .configs =
        {
            {.values = {{"BLOCK_SIZE_M", 16}, {"BLOCK_SIZE_N", 64}, {"BLOCK_SIZE_K", 128}},
             .num_warps = 8,
             .num_stages = 4},
            {.values = {{"BLOCK_SIZE_M", 32}, {"BLOCK_SIZE_N", 64}, {"BLOCK_SIZE_K", 128}},
             .num_warps = 8,
             .num_stages = 4},
            {.values = {{"BLOCK_SIZE_M", 64}, {"BLOCK_SIZE_N", 64}, {"BLOCK_SIZE_K", 128}},
             .num_warps = 8,
             .num_stages = 4},
            {.values = {{"BLOCK_SIZE_M", 64}, {"BLOCK_SIZE_N", 128}, {"BLOCK_SIZE_K", 128}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_SIZE_M", 64}, {"BLOCK_SIZE_N", 128}, {"BLOCK_SIZE_K", 128}},
             .num_warps = 8,
             .num_stages = 5},
            {.values = {{"BLOCK_SIZE_M", 32}, {"BLOCK_SIZE_N", 128}, {"BLOCK_SIZE_K", 128}},
             .num_warps = 8,
             .num_stages = 4},
        },
    .key = {"M"},
};
