// Matrix multiplication C = act(A @ B) (Triton tutorial 03): A is [M, K], B is [K, N], C is
// [M, N], each with a row stride (elements along a row are contiguous). T is half or
// bfloat16; accumulation is in float. Each program computes one BLOCK_M x BLOCK_N tile of C,
// walking K in BLOCK_K steps; the loop's loads feed tl::dot, so the translator stages them
// through shared memory, num_stages deep.
#include <tilec/tl.h>

// Programs are ordered in groups of GROUP_M rows of tiles, so that the programs running at
// the same time share columns of B and rows of A in the L2 cache.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, class T, bool LEAKY_RELU>
TILEC_KERNEL void matmul(const T *a, const T *b, T *c, int M, int N, int K, int stride_am,
                         int stride_bk, int stride_cm) {
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int num_pid_in_group = GROUP_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M);
  int pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  // Rows of A and columns of B wrap around at the edges (their results are not stored), so
  // only the K tail needs a mask in the loop.
  auto offs_am = (pid_m * BLOCK_M + tl::arange<0, BLOCK_M>()) % M;
  auto offs_bn = (pid_n * BLOCK_N + tl::arange<0, BLOCK_N>()) % N;
  auto offs_k = tl::arange<0, BLOCK_K>();
  auto a_ptrs = a + tl::expand_dims<1>(offs_am) * stride_am + tl::expand_dims<0>(offs_k);
  auto b_ptrs = b + tl::expand_dims<1>(offs_k) * stride_bk + tl::expand_dims<0>(offs_bn);

  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_K); ++k) {
    auto a_tile = tl::load(a_ptrs, tl::expand_dims<0>(offs_k) < K - k * BLOCK_K, 0.0f);
    auto b_tile = tl::load(b_ptrs, tl::expand_dims<1>(offs_k) < K - k * BLOCK_K, 0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
    a_ptrs += BLOCK_K;
    b_ptrs += BLOCK_K * stride_bk;
  }
  if constexpr (LEAKY_RELU)
    acc = tl::where(acc >= 0.0f, acc, 0.01f * acc);

  auto offs_cm = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_cn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto c_ptrs = c + tl::expand_dims<1>(offs_cm) * stride_cm + tl::expand_dims<0>(offs_cn);
  auto c_mask = (tl::expand_dims<1>(offs_cm) < M) && (tl::expand_dims<0>(offs_cn) < N);
  tl::store(c_ptrs, tl::cast<T>(acc), c_mask);
}

// Autotuning (Triton's @triton.autotune): the first call for new M, N, K times these configs
// (Triton's tutorial 03 has the like) and keeps the fastest. Tiles 256 wide only pay off on
// matrices at least that wide: for smaller ones the prune hook drops them before compiling.
TILEC_AUTOTUNE(matmul) = {
    .configs =
        {
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 256}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
        },
    .key = {"M", "N", "K"},
    .prune =
        [](int BLOCK_M, int BLOCK_N, int M, int N) {
          return (BLOCK_M <= 128 || BLOCK_M <= M) && (BLOCK_N <= 128 || BLOCK_N <= N);
        },
};
