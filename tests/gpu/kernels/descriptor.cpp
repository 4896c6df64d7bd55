// Tensor descriptors: boxes read and written through tl::make_tensor_descriptor, on the GPU
// against the interpreter (descriptor_gpu_test.cpp) and against plain loops in the
// interpreter's own test (tests/interpreter/descriptor_test.cpp).
#include <tilec/tl.h>

#include <cstdint>

// dst's [BM, BN] box at program (i, j) = 2 * src's box shifted by (shift_m, shift_n): boxes
// that hang over any edge of src (shifts may be negative) read zeros there, and the boxes of
// dst's last row and column of programs are clipped at dst's edge.
template <class T, int BM, int BN>
TILEC_KERNEL void shifted_copy(const T *src, T *dst, int M, int N, int64_t src_stride, int shift_m,
                               int shift_n) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto in = tl::make_tensor_descriptor<BM, BN>(src, {M, N}, {src_stride, 1});
  auto out = tl::make_tensor_descriptor<BM, BN>(dst, {M, N}, {N, 1});
  auto box = in.load({m0 + shift_m, n0 + shift_n});
  out.store({m0, n0}, box * 2);
}

// Rank 1 and rank 3 boxes: y[i] = x[i] + 1 in boxes of B; and the sums over the middle axis
// of [D0, D1, D2] boxes of a [P, Q, R] tensor (the sums stored as a [D0, 1, D2] box of a
// [P, 1, R] tensor).
template <int B> TILEC_KERNEL void plus_one(const float *x, float *y, int n) {
  auto in = tl::make_tensor_descriptor<B>(x, {n}, {1});
  auto out = tl::make_tensor_descriptor<B>(y, {n}, {1});
  int i0 = tl::program_id(0) * B;
  out.store({i0}, in.load({i0}) + 1.0f);
}

template <int D0, int D1, int D2>
TILEC_KERNEL void middle_sums(const float *x, float *sums, int P, int Q, int R) {
  auto in = tl::make_tensor_descriptor<D0, D1, D2>(x, {P, Q, R}, {Q * R, R, 1});
  auto out = tl::make_tensor_descriptor<D0, 1, D2>(sums, {P, 1, R}, {R, R, 1});
  int p0 = tl::program_id(0) * D0;
  int r0 = tl::program_id(1) * D2;
  auto total = tl::zeros<float, D0, 1, D2>();
  for (int q0 = 0; q0 < Q; q0 += D1)
    total = total + tl::sum<1, true>(in.load({p0, q0, r0}));
  out.store({p0, 0, r0}, total);
}

// C = A B with every operand through a descriptor (Triton's tutorial 09 spelling): the loop's
// A and B boxes go through the same pipelining as pointer tiles.
template <int BM, int BN, int BK>
TILEC_KERNEL void descriptor_matmul(const tl::half *a, const tl::half *b, float *c, int M, int N,
                                    int K) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  c_desc.store({m0, n0}, acc);
}

// The same on a 1-D grid, programs grouped GROUP_M rows of tiles at a time (tutorial 03's
// order): on sm_90a the blocks run the programs in turn (persistent-programs), so a grid with
// more programs than the GPU holds at once launches fewer blocks, each running several.
// C in halves: on sm_90a the tile goes to memory through the copy engine (tma-stores).
template <int BM, int BN, int BK, int GROUP_M, class TC>
TILEC_KERNEL void grouped_descriptor_matmul(const tl::half *a, const tl::half *b, TC *c, int M,
                                            int N, int K) {
  int pid = tl::program_id(0);
  int num_pid_n = tl::cdiv(N, BN);
  int group = GROUP_M * num_pid_n;
  int first_m = pid / group * GROUP_M;
  int size_m = tl::minimum(tl::cdiv(M, BM) - first_m, GROUP_M);
  int m0 = (first_m + pid % group % size_m) * BM;
  int n0 = pid % group / size_m * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto rows = m0 + tl::arange<0, BM>();
  auto cols = n0 + tl::arange<0, BN>();
  tl::store(c + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols), tl::cast<TC>(acc),
            (tl::expand_dims<1>(rows) < M) && (tl::expand_dims<0>(cols) < N));
}
