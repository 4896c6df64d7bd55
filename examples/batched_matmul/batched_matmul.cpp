// Batched matrix multiplication C[b] = A[b] @ B[b] for b < batch: each A[b] is [M, K], B[b]
// [K, N], C[b] [M, N], row-major with a row stride, and matrix b of each operand starts
// b * batch stride elements after the first. T is half or bfloat16; accumulation is in float.
// program_id(0) walks the BLOCK_M x BLOCK_N tiles of one C[b] (grouped as in matmul.cpp),
// program_id(1) the batch. The K loop is shaped like matmul.cpp's (loads that only tl::dot
// reads, pointers advanced with +=, K tail masked with other 0), so the translator pipelines
// it through shared memory num_stages deep.
#include <tilec/tl.h>

template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, class T>
TILEC_KERNEL void batched_matmul(const T *a, const T *b, T *c, int M, int N, int K,
                                 int64_t stride_ab, int stride_am, int64_t stride_bb, int stride_bk,
                                 int64_t stride_cb, int stride_cm) {
  int pid = tl::program_id(0);
  int batch = tl::program_id(1);
  // Groups of GROUP_M rows of tiles, so that programs running together share rows of A[b]
  // and columns of B[b] in the L2 cache.
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int num_pid_in_group = GROUP_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M);
  int pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  // The batch offsets are 64-bit: a whole batch may exceed 2^31 elements, one matrix may not.
  const T *a_mat = a + batch * stride_ab;
  const T *b_mat = b + batch * stride_bb;
  T *c_mat = c + batch * stride_cb;

  // Rows of A and columns of B wrap around at the edges (their results are not stored), so
  // only the K tail needs a mask in the loop.
  auto offs_am = (pid_m * BLOCK_M + tl::arange<0, BLOCK_M>()) % M;
  auto offs_bn = (pid_n * BLOCK_N + tl::arange<0, BLOCK_N>()) % N;
  auto offs_k = tl::arange<0, BLOCK_K>();
  auto a_ptrs = a_mat + tl::expand_dims<1>(offs_am) * stride_am + tl::expand_dims<0>(offs_k);
  auto b_ptrs = b_mat + tl::expand_dims<1>(offs_k) * stride_bk + tl::expand_dims<0>(offs_bn);

  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_K); ++k) {
    auto a_tile = tl::load(a_ptrs, tl::expand_dims<0>(offs_k) < K - k * BLOCK_K, 0.0f);
    auto b_tile = tl::load(b_ptrs, tl::expand_dims<1>(offs_k) < K - k * BLOCK_K, 0.0f);
    acc = tl::dot(a_tile, b_tile, acc);
    a_ptrs += BLOCK_K;
    b_ptrs += BLOCK_K * stride_bk;
  }

  auto offs_cm = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_cn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto c_ptrs = c_mat + tl::expand_dims<1>(offs_cm) * stride_cm + tl::expand_dims<0>(offs_cn);
  auto c_mask = (tl::expand_dims<1>(offs_cm) < M) && (tl::expand_dims<0>(offs_cn) < N);
  tl::store(c_ptrs, tl::cast<T>(acc), c_mask);
}
