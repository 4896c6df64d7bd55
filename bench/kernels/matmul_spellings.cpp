// Matrix products spelled the way Triton's tutorials and their users often write them, for
// bench/bench_spellings.cpp: the same arithmetic as examples/matmul/matmul.cpp (Triton tutorial
// 03, "Matrix Multiplication", python/tutorials/03-matrix-multiplication.py), but
//   - matmul_offsets: the K offsets are recomputed from the loop index every iteration and the
//     pointers rebuilt from them, instead of advancing pointer tiles;
//   - linear_nt:      y = x @ W^T with W stored [N, K] (a torch.nn.Linear weight), W's tile
//     addressed transposed (K along the rows of the tile, contiguous in memory);
//   - int8_gemm:      int8 x int8 -> int32 in the spelling of matmul_offsets;
//   - matmul_descriptor: every operand through a tensor descriptor (Triton tutorial 09's
//     spelling, python/tutorials/09-persistent-matmul.py, here one tile per program);
//   - matmul_strided: tutorial 03 exactly as written, every stride an argument (stride_ak,
//     stride_bn and stride_cn too, 1 at run time), pointers advanced by BLOCK_K * stride;
//   - matmul_block_ptr: every operand a block pointer with strides given at run time, moved
//     with tl::advance (Triton's block-pointer tutorial, python/tutorials/
//     08-experimental-block-pointer.py, Triton 2.1).
// A fast translator gives them all the speed of the pointer-advancing original (fp8_linear.cpp
// has linear_nt's spelling with e4m3 operands).
// T is tl::half or tl::bfloat16; accumulation is in float (int32 for int8).
#include <tilec/tl.h>

#include <cstdint>

// C [M, N] = A [M, K] @ B [K, N], all row-major with the given row strides. Programs are
// ordered in groups of GROUP_M rows of tiles (tutorial 03's "L2 cache optimizations").
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, class T>
TILEC_KERNEL void matmul_offsets(const T *a, const T *b, T *c, int M, int N, int K, int stride_am,
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

  // Rows of A and columns of B wrap at the edges (those results are not stored).
  auto offs_m = (pid_m * BLOCK_M + tl::arange<0, BLOCK_M>()) % M;
  auto offs_n = (pid_n * BLOCK_N + tl::arange<0, BLOCK_N>()) % N;

  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_K); ++k) {
    auto offs_k = k * BLOCK_K + tl::arange<0, BLOCK_K>();
    auto a_tile = tl::load(a + tl::expand_dims<1>(offs_m) * stride_am + tl::expand_dims<0>(offs_k),
                           tl::expand_dims<0>(offs_k) < K, 0.0f);
    auto b_tile = tl::load(b + tl::expand_dims<1>(offs_k) * stride_bk + tl::expand_dims<0>(offs_n),
                           tl::expand_dims<1>(offs_k) < K, 0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
  }

  auto offs_cm = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_cn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto c_ptrs = c + tl::expand_dims<1>(offs_cm) * stride_cm + tl::expand_dims<0>(offs_cn);
  auto c_mask = (tl::expand_dims<1>(offs_cm) < M) && (tl::expand_dims<0>(offs_cn) < N);
  tl::store(c_ptrs, tl::cast<T>(acc), c_mask);
}

// Tutorial 03 as written: all six strides are arguments.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, class T>
TILEC_KERNEL void matmul_strided(const T *a, const T *b, T *c, int M, int N, int K, int stride_am,
                                 int stride_ak, int stride_bk, int stride_bn, int stride_cm,
                                 int stride_cn) {
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int num_pid_in_group = GROUP_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M);
  int pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  auto offs_am = (pid_m * BLOCK_M + tl::arange<0, BLOCK_M>()) % M;
  auto offs_bn = (pid_n * BLOCK_N + tl::arange<0, BLOCK_N>()) % N;
  auto offs_k = tl::arange<0, BLOCK_K>();
  auto a_ptrs = a + (tl::expand_dims<1>(offs_am) * stride_am +
                     tl::expand_dims<0>(offs_k) * stride_ak);
  auto b_ptrs = b + (tl::expand_dims<1>(offs_k) * stride_bk +
                     tl::expand_dims<0>(offs_bn) * stride_bn);

  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_K); ++k) {
    auto a_tile = tl::load(a_ptrs, tl::expand_dims<0>(offs_k) < K - k * BLOCK_K, 0.0f);
    auto b_tile = tl::load(b_ptrs, tl::expand_dims<1>(offs_k) < K - k * BLOCK_K, 0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
    a_ptrs += BLOCK_K * stride_ak;
    b_ptrs += BLOCK_K * stride_bk;
  }

  auto offs_cm = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_cn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto c_ptrs = c + stride_cm * tl::expand_dims<1>(offs_cm) + stride_cn * tl::expand_dims<0>(offs_cn);
  auto c_mask = (tl::expand_dims<1>(offs_cm) < M) && (tl::expand_dims<0>(offs_cn) < N);
  tl::store(c_ptrs, tl::cast<T>(acc), c_mask);
}

// Block pointers with strides given at run time (Triton's block-pointer tutorial), in the
// grouped program order.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, class T>
TILEC_KERNEL void matmul_block_ptr(const T *a, const T *b, T *c, int M, int N, int K,
                                   int stride_am, int stride_ak, int stride_bk, int stride_bn,
                                   int stride_cm, int stride_cn) {
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int num_pid_in_group = GROUP_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M);
  int pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  auto a_block_ptr = tl::make_block_ptr<BLOCK_M, BLOCK_K>(a, {M, K}, {stride_am, stride_ak},
                                                          {pid_m * BLOCK_M, 0}, {1, 0});
  auto b_block_ptr = tl::make_block_ptr<BLOCK_K, BLOCK_N>(b, {K, N}, {stride_bk, stride_bn},
                                                          {0, pid_n * BLOCK_N}, {1, 0});
  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < K; k += BLOCK_K) {
    auto a_tile = tl::load(a_block_ptr, {0, 1});
    auto b_tile = tl::load(b_block_ptr, {0, 1});
    acc = tl::dot(a_tile, b_tile, acc);
    a_block_ptr = tl::advance(a_block_ptr, {0, BLOCK_K});
    b_block_ptr = tl::advance(b_block_ptr, {BLOCK_K, 0});
  }
  auto c_block_ptr = tl::make_block_ptr<BLOCK_M, BLOCK_N>(
      c, {M, N}, {stride_cm, stride_cn}, {pid_m * BLOCK_M, pid_n * BLOCK_N}, {1, 0});
  tl::store(c_block_ptr, tl::cast<T>(acc), {0, 1});
}

// C = A @ B with A, B and C read and written as boxes of tensor descriptors: no masks or
// offsets to write; boxes over the edges read zeros and store nothing outside.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, class T>
TILEC_KERNEL void matmul_descriptor(const T *a, const T *b, T *c, int M, int N, int K,
                                    int stride_am, int stride_bk, int stride_cm) {
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int num_pid_in_group = GROUP_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M);
  int pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  auto a_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_K>(a, {M, K}, {stride_am, 1});
  auto b_desc = tl::make_tensor_descriptor<BLOCK_K, BLOCK_N>(b, {K, N}, {stride_bk, 1});
  auto c_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_N>(c, {M, N}, {stride_cm, 1});
  int offs_am = pid_m * BLOCK_M;
  int offs_bn = pid_n * BLOCK_N;
  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_K); ++k) {
    int offs_k = k * BLOCK_K;
    acc = tl::dot(a_desc.load({offs_am, offs_k}), b_desc.load({offs_k, offs_bn}), acc);
  }
  c_desc.store({offs_am, offs_bn}, tl::cast<T>(acc));
}

// y [M, N] = x [M, K] @ W^T, W stored [N, K] row-major (torch.nn.functional.linear without a
// bias). W's tile is loaded as [BLOCK_K, BLOCK_N], the operand tl::dot wants, by swapping the
// roles of the offsets: w + offs_n[None, :] * stride_wn + offs_k[:, None].
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, class T>
TILEC_KERNEL void linear_nt(const T *x, const T *w, T *y, int M, int N, int K, int stride_xm,
                            int stride_wn, int stride_ym) {
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

  auto offs_ym = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_yn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto y_ptrs = y + tl::expand_dims<1>(offs_ym) * stride_ym + tl::expand_dims<0>(offs_yn);
  auto y_mask = (tl::expand_dims<1>(offs_ym) < M) && (tl::expand_dims<0>(offs_yn) < N);
  tl::store(y_ptrs, tl::cast<T>(acc), y_mask);
}

// C [M, N] (int32) = A [M, K] (int8) @ B [K, N] (int8), row-major, exact (sums wrap only past
// 2^31, far beyond 127 * 128 * K for the sizes benchmarked). The spelling of matmul_offsets.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M>
TILEC_KERNEL void int8_gemm(const int8_t *a, const int8_t *b, int32_t *c, int M, int N, int K,
                            int stride_am, int stride_bk, int stride_cm) {
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

  auto acc = tl::zeros<int32_t, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_K); ++k) {
    auto offs_k = k * BLOCK_K + tl::arange<0, BLOCK_K>();
    auto a_tile = tl::load(a + tl::expand_dims<1>(offs_m) * stride_am + tl::expand_dims<0>(offs_k),
                           tl::expand_dims<0>(offs_k) < K, 0);
    auto b_tile = tl::load(b + tl::expand_dims<1>(offs_k) * stride_bk + tl::expand_dims<0>(offs_n),
                           tl::expand_dims<1>(offs_k) < K, 0);
    acc = tl::dot(a_tile, b_tile, acc);
  }

  auto offs_cm = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_cn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto c_ptrs = c + tl::expand_dims<1>(offs_cm) * stride_cm + tl::expand_dims<0>(offs_cn);
  auto c_mask = (tl::expand_dims<1>(offs_cm) < M) && (tl::expand_dims<0>(offs_cn) < N);
  tl::store(c_ptrs, acc, c_mask);
}

// Autotuning: the configs of examples/matmul/matmul.cpp for the two 16-bit kernels (tiles 256
// wide are pruned on matrices narrower than that). int8 tiles take twice the K depth for the
// same bytes per stage (BLOCK_K 64 and 128: the tensor cores read 32 int8 values of K at once).
inline bool wide_tiles_fit(int BLOCK_M, int BLOCK_N, int M, int N) {
  return (BLOCK_M <= 128 || BLOCK_M <= M) && (BLOCK_N <= 128 || BLOCK_N <= N);
}

// The 16-bit spellings but the descriptors' share one table (a macro: the translator reads
// the initializer as written).
#define MATMUL_16BIT_AUTOTUNE \
{                                                                                             \
    .configs =                                                                                \
        {                                                                                     \
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"GROUP_M", 8}}, \
             .num_warps = 4,                                                                  \
             .num_stages = 4},                                                                \
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"GROUP_M", 8}}, \
             .num_warps = 4,                                                                  \
             .num_stages = 3},                                                                \
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 64}, {"GROUP_M", 8}}, \
             .num_warps = 8,                                                                  \
             .num_stages = 3},                                                                \
            {.values = {{"BLOCK_M", 256}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"GROUP_M", 8}}, \
             .num_warps = 8,                                                                  \
             .num_stages = 3},                                                                \
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}, {"BLOCK_K", 64}, {"GROUP_M", 8}},  \
             .num_warps = 4,                                                                  \
             .num_stages = 4},                                                                \
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"GROUP_M", 8}},  \
             .num_warps = 4,                                                                  \
             .num_stages = 4},                                                                \
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 64}, {"GROUP_M", 8}},   \
             .num_warps = 4,                                                                  \
             .num_stages = 4},                                                                \
        },                                                                                    \
    .key = {"M", "N", "K"},                                                                   \
    .prune = wide_tiles_fit,                                                                  \
}

TILEC_AUTOTUNE(matmul_offsets) = MATMUL_16BIT_AUTOTUNE;

TILEC_AUTOTUNE(matmul_strided) = MATMUL_16BIT_AUTOTUNE;

TILEC_AUTOTUNE(matmul_block_ptr) = MATMUL_16BIT_AUTOTUNE;

TILEC_AUTOTUNE(matmul_descriptor) = {
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
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 256}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
        },
    .key = {"M", "N", "K"},
    .prune = wide_tiles_fit,
};

TILEC_AUTOTUNE(linear_nt) = MATMUL_16BIT_AUTOTUNE;

TILEC_AUTOTUNE(int8_gemm) = {
    .configs =
        {
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 256}, {"BLOCK_N", 128}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 64}, {"BLOCK_K", 128}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"GROUP_M", 8}},
             .num_warps = 4,
             .num_stages = 4},
        },
    .key = {"M", "N", "K"},
    .prune = wide_tiles_fit,
};
