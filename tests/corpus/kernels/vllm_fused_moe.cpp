// Mixture-of-experts projection, ported from vLLM
// (github.com/vllm-project/vllm, vllm/model_executor/layers/fused_moe/fused_moe.py:
// fused_moe_kernel, its unquantized path; Apache License 2.0). The tokens are sorted by the
// expert they are routed to and padded so that each BLOCK_SIZE_M rows of `sorted_token_ids`
// belong to one expert (`expert_ids[pid_m]`); padding ids are >= num_valid_tokens. Program
// (pid_m, pid_n) multiplies its gathered rows of A (token id / top_k) by that expert's
// [K, N] slice of B, scales each row by its routing weight when asked, and scatters the rows
// to C, one row per (token, choice). An expert id of -1 (not on this rank) writes zeros.
// Every stride is an argument, as in the original: vLLM's weights are [E, N, K] (stride_bk
// 1), others store [E, K, N] (stride_bn 1); the original's quantized paths are left out.
#include <tilec/tl.h>

#include <cstdint>

template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K, int GROUP_SIZE_M,
          bool MUL_ROUTED_WEIGHT, int top_k>
TILEC_KERNEL void fused_moe_kernel(const T *a_ptr, const T *b_ptr, T *c_ptr,
                                   const float *topk_weights_ptr,
                                   const int32_t *sorted_token_ids_ptr,
                                   const int32_t *expert_ids_ptr,
                                   const int32_t *num_tokens_post_padded_ptr, int N, int K,
                                   int EM, int num_valid_tokens, int64_t stride_am,
                                   int64_t stride_ak, int64_t stride_be, int64_t stride_bk,
                                   int64_t stride_bn, int64_t stride_cm, int64_t stride_cn) {
  // grouped program order, for L2 reuse
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(EM, BLOCK_SIZE_M);
  int num_pid_n = tl::cdiv(N, BLOCK_SIZE_N);
  int num_pid_in_group = GROUP_SIZE_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_SIZE_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_SIZE_M);
  int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  int num_tokens_post_padded = tl::load(num_tokens_post_padded_ptr);
  if (pid_m * BLOCK_SIZE_M >= num_tokens_post_padded) {
    return;
  }
  auto offs_token_id = pid_m * BLOCK_SIZE_M + tl::cast<int64_t>(tl::arange<0, BLOCK_SIZE_M>());
  auto offs_token = tl::load(sorted_token_ids_ptr + offs_token_id);
  auto token_mask = offs_token < num_valid_tokens;

  int64_t off_experts = tl::load(expert_ids_ptr + pid_m);
  if (off_experts == -1) {
    // the expert is on another rank: this block of C is zero
    auto offs_cn = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
    auto c_ptrs = c_ptr + stride_cm * tl::expand_dims<1>(offs_token) +
                  stride_cn * tl::expand_dims<0>(offs_cn);
    auto c_mask = tl::expand_dims<1>(token_mask) & (tl::expand_dims<0>(offs_cn) < N);
    tl::store(c_ptrs, tl::zeros<T, BLOCK_SIZE_M, BLOCK_SIZE_N>(), c_mask);
    return;
  }

  auto offs_bn = (pid_n * BLOCK_SIZE_N + tl::cast<int64_t>(tl::arange<0, BLOCK_SIZE_N>())) % N;
  auto offs_k = tl::arange<0, BLOCK_SIZE_K>();
  auto a_ptrs = a_ptr + (tl::expand_dims<1>(offs_token / top_k) * stride_am +
                         tl::expand_dims<0>(offs_k) * stride_ak);
  auto b_ptrs = b_ptr + off_experts * stride_be +
                (tl::expand_dims<1>(offs_k) * stride_bk + tl::expand_dims<0>(offs_bn) * stride_bn);

  auto accumulator = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_SIZE_K); ++k) {
    // rows of padding and columns past K read zero
    auto a = tl::load(a_ptrs,
                      tl::expand_dims<1>(token_mask) &
                          (tl::expand_dims<0>(offs_k) < K - k * BLOCK_SIZE_K),
                      0.0f);
    auto b = tl::load(b_ptrs, tl::expand_dims<1>(offs_k) < K - k * BLOCK_SIZE_K, 0.0f);
    accumulator = tl::dot(a, b, accumulator);
    a_ptrs += BLOCK_SIZE_K * stride_ak;
    b_ptrs += BLOCK_SIZE_K * stride_bk;
  }

  if constexpr (MUL_ROUTED_WEIGHT) {
    auto moe_weight = tl::load(topk_weights_ptr + offs_token, token_mask, 0.0f);
    accumulator = accumulator * tl::expand_dims<1>(moe_weight);
  }

  auto offs_cn = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
  auto c_ptrs = c_ptr + stride_cm * tl::expand_dims<1>(offs_token) +
                stride_cn * tl::expand_dims<0>(offs_cn);
  auto c_mask = tl::expand_dims<1>(token_mask) & (tl::expand_dims<0>(offs_cn) < N);
  tl::store(c_ptrs, tl::cast<T>(accumulator), c_mask);
}
