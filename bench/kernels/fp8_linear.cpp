// fp8_linear for bench/bench_spellings.cpp: y = (x @ W^T) * scale_x * scale_w with x [M, K] and
// W [N, K] (a torch.nn.Linear weight) in e4m3 and per-tensor float scales, bfloat16 out: the
// problem torch._scaled_mm solves, written in the spelling of matmul_spellings.cpp's linear_nt.
// A file of its own: tl::dot of fp8 operands needs sm_89 or newer, the other spellings do not.
#include <tilec/tl.h>

// y [M, N] (bfloat16) = (x [M, K] @ W^T) * (scale_x * scale_w): x and W [N, K] in e4m3, the
// per-tensor scales read from memory (where a quantizer leaves them), products summed in float.
// linear_nt's spelling; 8-bit operands reach the tensor cores K-major, as W is stored.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M>
TILEC_KERNEL void fp8_linear(const tl::float8_e4m3 *x, const tl::float8_e4m3 *w, tl::bfloat16 *y,
                             const float *scale_x, const float *scale_w, int M, int N, int K,
                             int stride_xm, int stride_wn, int stride_ym) {
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int num_pid_in_group = GROUP_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M);
  int pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  auto offs_m = (pid_m * BLOCK_M + tl::arange<0, BLOCK_M>()) % M;
  auto offs_n = (pid_n * BLOCK_N + tl::arange<0, BLOCK_N>()) % N;

  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_K); ++k) {
    auto offs_k = k * BLOCK_K + tl::arange<0, BLOCK_K>();
    auto x_tile = tl::load(x + tl::expand_dims<1>(offs_m) * stride_xm + tl::expand_dims<0>(offs_k),
                           tl::expand_dims<0>(offs_k) < K, 0.0f);
    auto w_tile = tl::load(w + tl::expand_dims<0>(offs_n) * stride_wn + tl::expand_dims<1>(offs_k),
                           tl::expand_dims<1>(offs_k) < K, 0.0f);
    acc = tl::dot(x_tile, w_tile, acc);
  }
  float scale = tl::load(scale_x) * tl::load(scale_w);

  auto offs_ym = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_yn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto y_ptrs = y + tl::expand_dims<1>(offs_ym) * stride_ym + tl::expand_dims<0>(offs_yn);
  auto y_mask = (tl::expand_dims<1>(offs_ym) < M) && (tl::expand_dims<0>(offs_yn) < N);
  tl::store(y_ptrs, tl::cast<tl::bfloat16>(acc * scale), y_mask);
}

// fp8 tiles are half as wide in bytes as 16-bit ones: BLOCK_K 128 is one 128-byte row per stage.
TILEC_AUTOTUNE(fp8_linear) = {
    .configs =
        {
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 256}, {"BLOCK_N", 128}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 5},
            // Two blocks per SM (96 KB of stages each): one block's epilogue under the other's
            // main loop.
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 256}, {"BLOCK_N", 128}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 4},
        },
    .key = {"M", "N", "K"},
    .prune =
        [](int BLOCK_M, int BLOCK_N, int M, int N) {
          return (BLOCK_M <= 128 || BLOCK_M <= M) && (BLOCK_N <= 128 || BLOCK_N <= N);
        },
};
