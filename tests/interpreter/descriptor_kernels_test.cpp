// The tensor-descriptor kernels of the GPU tests (tests/gpu/kernels/descriptor.cpp), run in
// the interpreter and checked against plain loops: boxes over every edge read zeros and store
// nothing outside the tensor, including boxes that start before it (negative offsets).
#include "support.h"

#include "descriptor.cpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

TEST(DescriptorKernels, ShiftedBoxesReadZerosOutsideAndStoreInside) {
  constexpr int BM = 8, BN = 16, M = 19, N = 37, stride = 41;
  std::vector<float> src(size_t(M) * stride);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = float(int(i % 97) - 40);
  for (int shift_m : {-3, 0, 5})
    for (int shift_n : {-17, 0, 2}) {
      SCOPED_TRACE(testing::Message() << "shift " << shift_m << ", " << shift_n);
      // A guard row past dst's end: a store outside the tensor would land in it.
      std::vector<float> dst(size_t(M + 1) * N, NAN);
      tilec::interpret::launch(shifted_copy<float, BM, BN>,
                               tilec::Grid{(M + BM - 1) / BM, (N + BN - 1) / BN}, src.data(),
                               dst.data(), M, N, int64_t(stride), shift_m, shift_n);
      for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
          const int sr = r + shift_m, sc = c + shift_n;
          const bool inside = sr >= 0 && sr < M && sc >= 0 && sc < N;
          const float want = inside ? 2 * src[size_t(sr) * stride + sc] : 0.0f;
          ASSERT_EQ(dst[size_t(r) * N + c], want) << "at " << r << ", " << c;
        }
      for (int c = 0; c < N; ++c)
        ASSERT_TRUE(std::isnan(dst[size_t(M) * N + c])) << "stored past the tensor, column " << c;
    }
}

TEST(DescriptorKernels, RankOneAndRankThreeBoxes) {
  constexpr int n = 45;
  std::vector<float> x(n), y(n + 3, NAN);
  for (int i = 0; i < n; ++i)
    x[i] = float(i) * 0.5f;
  tilec::interpret::launch(plus_one<16>, tilec::Grid{3}, x.data(), y.data(), n);
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(y[i], x[i] + 1.0f) << i;
  for (int i = n; i < n + 3; ++i)
    EXPECT_TRUE(std::isnan(y[i])) << "stored past the end at " << i;

  constexpr int P = 5, Q = 11, R = 9, D0 = 2, D1 = 4, D2 = 8;
  std::vector<float> t(size_t(P) * Q * R), sums(size_t(P) * R + 4, NAN);
  for (size_t i = 0; i < t.size(); ++i)
    t[i] = float(int(i % 13) - 6);
  tilec::interpret::launch(middle_sums<D0, D1, D2>,
                           tilec::Grid{(P + D0 - 1) / D0, (R + D2 - 1) / D2}, t.data(),
                           sums.data(), P, Q, R);
  for (int p = 0; p < P; ++p)
    for (int r = 0; r < R; ++r) {
      float want = 0;
      for (int q = 0; q < Q; ++q)
        want += t[(size_t(p) * Q + q) * R + r];
      EXPECT_EQ(sums[size_t(p) * R + r], want) << p << ", " << r;
    }
  for (size_t i = size_t(P) * R; i < sums.size(); ++i)
    EXPECT_TRUE(std::isnan(sums[i])) << "stored past the end at " << i;
}

TEST(DescriptorKernels, MatmulThroughDescriptors) {
  constexpr int BM = 16, BN = 16, BK = 16, M = 37, N = 29, K = 41;
  std::vector<tl::half> a(size_t(M) * K), b(size_t(K) * N);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = tl::half(float(int(i % 7) - 3) / 4);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = tl::half(float(int(i % 5) - 2) / 2);
  std::vector<float> c(size_t(M) * N, NAN);
  tilec::interpret::launch(descriptor_matmul<BM, BN, BK>,
                           tilec::Grid{(M + BM - 1) / BM, (N + BN - 1) / BN}, a.data(), b.data(),
                           c.data(), M, N, K);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = 0;
      for (int k = 0; k < K; ++k)
        want += double(float(a[size_t(i) * K + k])) * double(float(b[size_t(k) * N + j]));
      ASSERT_EQ(c[size_t(i) * N + j], float(want)) << i << ", " << j; // exact: small dyadics
    }
}

} // namespace
