// Block pointers: boxes read and written through tl::make_block_ptr / tl::advance, on the GPU
// against the interpreter (block_ptr_gpu_test.cpp) and against plain loops in the
// interpreter's own test (tests/interpreter/block_ptr_kernels_test.cpp).
#include <tilec/tl.h>

#include <cstdint>

// C = A B in the spelling of Triton's block-pointer tutorial (python/tutorials/
// 08-experimental-block-pointer.py, Triton 2.1, MIT licence): every operand a block pointer with
// strides given at run time, moved along K with tl::advance, rows and columns bounds-checked.
// Passing A's or B's strides swapped multiplies by a transposed operand (x @ W^T with an
// nn.Linear weight).
template <int BM, int BN, int BK, int GROUP_M>
TILEC_KERNEL void block_ptr_matmul(const tl::half *a, const tl::half *b, float *c, int M, int N,
                                   int K, int stride_am, int stride_ak, int stride_bk,
                                   int stride_bn, int stride_cm, int stride_cn) {
  int pid = tl::program_id(0);
  int num_pid_n = tl::cdiv(N, BN);
  int group = GROUP_M * num_pid_n;
  int first_m = pid / group * GROUP_M;
  int size_m = tl::minimum(tl::cdiv(M, BM) - first_m, GROUP_M);
  int pid_m = first_m + pid % group % size_m;
  int pid_n = pid % group / size_m;
  auto a_bp = tl::make_block_ptr<BM, BK>(a, {M, K}, {stride_am, stride_ak}, {pid_m * BM, 0},
                                         {1, 0});
  auto b_bp = tl::make_block_ptr<BK, BN>(b, {K, N}, {stride_bk, stride_bn}, {0, pid_n * BN},
                                         {1, 0});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = tl::load(a_bp, {0, 1});
    auto y = tl::load(b_bp, {0, 1});
    acc = tl::dot(x, y, acc);
    a_bp = tl::advance(a_bp, {0, BK});
    b_bp = tl::advance(b_bp, {BK, 0});
  }
  auto c_bp = tl::make_block_ptr<BM, BN>(c, {M, N}, {stride_cm, stride_cn},
                                         {pid_m * BM, pid_n * BN}, {1, 0});
  tl::store(c_bp, acc, {0, 1});
}

// The same with row-major operands whose inner strides are the literal 1: on sm_90a the
// operands arrive through the copy engine (tma-copies), as for pointer tiles.
template <int BM, int BN, int BK>
TILEC_KERNEL void block_ptr_matmul_rows(const tl::half *a, const tl::half *b, float *c, int M,
                                        int N, int K) {
  auto a_bp = tl::make_block_ptr<BM, BK>(a, {M, K}, {K, 1}, {tl::program_id(0) * BM, 0});
  auto b_bp = tl::make_block_ptr<BK, BN>(b, {K, N}, {N, 1}, {0, tl::program_id(1) * BN});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    acc = tl::dot(tl::load(a_bp, {0, 1}), tl::load(b_bp, {0, 1}), acc);
    a_bp = tl::advance(a_bp, {0, BK});
    b_bp = tl::advance(b_bp, {BK, 0});
  }
  auto c_bp = tl::make_block_ptr<BM, BN>(c, {M, N}, {N, 1},
                                         {tl::program_id(0) * BM, tl::program_id(1) * BN});
  tl::store(c_bp, acc, {0, 1});
}

// Each program walks its row of an [M, N] matrix backwards, BN columns at a time, and writes
// the running sum of 2 * x from the right (a reversed prefix sum of the box sums) into a
// [M, N] output: columns checked at every step, rows never (the grid has one program per row
// of boxes and BM divides M), a box that starts before column 0 reads zeros there.
template <int BM, int BN>
TILEC_KERNEL void backward_row_sums(const float *x, float *out, int M, int N, int64_t stride) {
  int m0 = tl::program_id(0) * BM;
  int last = (N - 1) / BN * BN;
  auto in = tl::make_block_ptr<BM, BN>(x, {M, N}, {stride, 1}, {m0, last});
  auto dst = tl::make_block_ptr<BM, BN>(out, {M, N}, {N, 1}, {m0, last});
  auto carry = tl::zeros<float, BM>();
  for (int n = last; n >= 0; n -= BN) {
    auto box = tl::load(in, {1}) * 2.0f;
    carry = carry + tl::sum<1>(box);
    tl::store(dst, tl::broadcast_to<BM, BN>(tl::expand_dims<1>(carry)), {1});
    in = tl::advance(in, {0, -BN});
    dst = tl::advance(dst, {0, -BN});
  }
}
