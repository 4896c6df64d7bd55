// The block-pointer kernels of the GPU tests (tests/gpu/kernels/block_ptr.cpp), run in the
// interpreter and checked against plain loops: only the dimensions of the boundary check are
// masked, advances move the box (backwards too), strides may swap for a transposed operand.
#include "support.h"

#include "block_ptr.cpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

std::vector<tl::half> small_halves(size_t n, int mod, int shift, float scale) {
  std::vector<tl::half> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = tl::half(float(int(i % size_t(mod)) - shift) * scale);
  return v;
}

TEST(BlockPtrKernels, MatmulWithStridesGivenAtRunTime) {
  constexpr int BM = 16, BN = 16, BK = 16, M = 37, N = 29, K = 41;
  auto a = small_halves(size_t(M) * K, 7, 3, 0.25f);
  auto b = small_halves(size_t(K) * N, 5, 2, 0.5f);
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "B stored as B^T" : "B row-major");
    const int stride_bk = transposed ? 1 : N, stride_bn = transposed ? K : 1;
    std::vector<float> c(size_t(M) * N + 8, NAN);
    const int programs = ((M + BM - 1) / BM) * ((N + BN - 1) / BN);
    tilec::interpret::launch(block_ptr_matmul<BM, BN, BK, 2>, tilec::Grid{unsigned(programs)},
                             a.data(), b.data(), c.data(), M, N, K, K, 1, stride_bk, stride_bn,
                             N, 1);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double want = 0;
        for (int k = 0; k < K; ++k)
          want += double(float(a[size_t(i) * K + k])) *
                  double(float(b[size_t(k) * stride_bk + size_t(j) * stride_bn]));
        ASSERT_EQ(c[size_t(i) * N + j], float(want)) << i << ", " << j; // small dyadics: exact
      }
    for (size_t i = size_t(M) * N; i < c.size(); ++i)
      ASSERT_TRUE(std::isnan(c[i])) << "stored past the tensor at " << i;
  }
}

TEST(BlockPtrKernels, RowMajorMatmul) {
  constexpr int BM = 16, BN = 16, BK = 16, M = 19, N = 35, K = 23;
  auto a = small_halves(size_t(M) * K, 9, 4, 0.5f);
  auto b = small_halves(size_t(K) * N, 3, 1, 1.0f);
  std::vector<float> c(size_t(M) * N, NAN);
  tilec::interpret::launch(block_ptr_matmul_rows<BM, BN, BK>,
                           tilec::Grid{(M + BM - 1) / BM, (N + BN - 1) / BN}, a.data(), b.data(),
                           c.data(), M, N, K);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = 0;
      for (int k = 0; k < K; ++k)
        want += double(float(a[size_t(i) * K + k])) * double(float(b[size_t(k) * N + j]));
      ASSERT_EQ(c[size_t(i) * N + j], float(want)) << i << ", " << j;
    }
}

TEST(BlockPtrKernels, BackwardWalkChecksOnlyColumns) {
  constexpr int BM = 4, BN = 8, M = 12, N = 21;
  constexpr int64_t stride = 25;
  std::vector<float> x(size_t(M) * stride);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i % 11) - 5);
  std::vector<float> out(size_t(M) * N + 4, NAN);
  tilec::interpret::launch(backward_row_sums<BM, BN>, tilec::Grid{M / BM}, x.data(), out.data(),
                           M, N, stride);
  for (int r = 0; r < M; ++r) {
    // Box sums from the right: the box starting at column c0 covers [c0, c0 + BN).
    float carry = 0;
    for (int c0 = (N - 1) / BN * BN; c0 >= 0; c0 -= BN) {
      for (int c = c0; c < std::min(c0 + BN, N); ++c)
        carry += 2 * x[size_t(r) * stride + c];
      for (int c = c0; c < std::min(c0 + BN, N); ++c)
        ASSERT_EQ(out[size_t(r) * N + c], carry) << r << ", " << c;
    }
  }
  for (size_t i = size_t(M) * N; i < out.size(); ++i)
    ASSERT_TRUE(std::isnan(out[i])) << "stored past the tensor at " << i;
}

// An unchecked dimension must stay inside the tensor: a checked launch reports the access.
template <int B> TILEC_KERNEL void unchecked_overrun(const float *x, float *y, int n) {
  auto in = tl::make_block_ptr<B>(x, {n}, {1}, {0});
  auto out = tl::make_block_ptr<B>(y, {n}, {1}, {0});
  tl::store(out, tl::load(in), {0});
}

TEST(BlockPtrKernels, UncheckedDimensionOutsideIsReported) {
  std::vector<float> x(5, 1.0f), y(5, 0.0f);
  using tilec::interpret::checked;
  EXPECT_THROW(tilec::interpret::launch(unchecked_overrun<8>, tilec::Grid{1}, checked(x, "x"),
                                        checked(y, "y"), 5),
               tl::out_of_bounds_error);
}

} // namespace
