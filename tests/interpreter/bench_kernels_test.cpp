// The kernels of bench/kernels (what bench_spellings times on a GPU) in the interpreter, on
// shapes that are not multiples of their blocks, against double references, outputs poisoned
// first: the benchmark checks them again on the GPU, this keeps them right on every machine.
#include "support.h"

#include "attention_fwd.cpp"
#include "fp8_linear.cpp"
#include "matmul_spellings.cpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

using namespace tilec_test;

namespace {

/// n values in [-1, 1) rounded to T (int8: [-128, 127]).
template <class T> std::vector<T> random_values(int n, unsigned seed) {
  if constexpr (std::is_same_v<T, int8_t>) {
    return random_ints<int8_t>(n, -128, 127, seed);
  } else {
    auto f = random_floats(n, -1.0f, 1.0f, seed);
    return std::vector<T>(f.begin(), f.end());
  }
}

template <class T> double as_double(T x) { return double(float(x)); }

/// c [m, n] against a @ b, where b(k, j) reads B [K, N] or, for W_T, W [N, K]. Allowed: the
/// output's rounding to T (twice its unit roundoff) plus K + 1 float roundings of sum |a||b|.
template <class T, bool W_T>
void expect_product(const std::vector<T> &a, const std::vector<T> &b, const std::vector<T> &c,
                    int m, int n, int k) {
  const double out_rel = std::is_same_v<T, tl::half> ? 0x1p-10 : 0x1p-7;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        double x = as_double(a[size_t(i) * k + p]) *
                   as_double(W_T ? b[size_t(j) * k + p] : b[size_t(p) * n + j]);
        want += x, mag += std::fabs(x);
      }
      double got = as_double(c[size_t(i) * n + j]);
      ASSERT_LE(std::fabs(got - want), out_rel * std::fabs(want) + (k + 1) * 0x1p-24 * mag)
          << "at (" << i << ", " << j << "): got " << got << ", want " << want;
    }
}

template <class T> void check_matmuls() {
  const int m = 100, n = 70, k = 90; // two groups of two block rows, partial blocks everywhere
  auto a = random_values<T>(m * k, 1), b = random_values<T>(k * n, 2);
  const tilec::Grid grid{uint32_t(tilec::cdiv(m, 32) * tilec::cdiv(n, 32))};
  {
    SCOPED_TRACE("matmul_offsets");
    std::vector<T> c(size_t(m) * n, T(std::numeric_limits<float>::quiet_NaN()));
    tilec::interpret::launch(matmul_offsets<32, 32, 32, 2, T>, grid, a.data(), b.data(), c.data(),
                             m, n, k, k, n, n);
    expect_product<T, false>(a, b, c, m, n, k);
  }
  {
    SCOPED_TRACE("linear_nt");
    auto w = random_values<T>(n * k, 3); // W [N, K]
    std::vector<T> y(size_t(m) * n, T(std::numeric_limits<float>::quiet_NaN()));
    tilec::interpret::launch(linear_nt<32, 32, 32, 2, T>, grid, a.data(), w.data(), y.data(), m, n,
                             k, k, k, n);
    expect_product<T, true>(a, w, y, m, n, k);
  }
}

TEST(BenchKernels, MatmulSpellingsHalf) { check_matmuls<tl::half>(); }
TEST(BenchKernels, MatmulSpellingsBfloat16) { check_matmuls<tl::bfloat16>(); }

TEST(BenchKernels, Int8Gemm) {
  const int m = 100, n = 70, k = 150; // K: one full and one partial block of 64
  auto a = random_values<int8_t>(m * k, 4), b = random_values<int8_t>(k * n, 5);
  std::vector<int32_t> c(size_t(m) * n, 0x7f7f7f7f);
  tilec::interpret::launch(int8_gemm<32, 32, 64, 2>,
                           tilec::Grid{uint32_t(tilec::cdiv(m, 32) * tilec::cdiv(n, 32))}, a.data(),
                           b.data(), c.data(), m, n, k, k, n, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int64_t want = 0;
      for (int p = 0; p < k; ++p)
        want += int64_t(a[size_t(i) * k + p]) * b[size_t(p) * n + j];
      ASSERT_EQ(c[size_t(i) * n + j], want) << "at (" << i << ", " << j << ")";
    }
}

TEST(BenchKernels, Fp8Linear) {
  const int m = 100, n = 70, k = 150; // partial blocks everywhere, K over two blocks of 128
  auto xf = random_floats(m * k, -1.0f, 1.0f, 9), wf = random_floats(n * k, -1.0f, 1.0f, 10);
  std::vector<tl::float8_e4m3> x(xf.begin(), xf.end()), w(wf.begin(), wf.end()); // W [N, K]
  const float scale_x = 0.5f, scale_w = 0.25f;
  std::vector<tl::bfloat16> y(size_t(m) * n, tl::bfloat16(std::numeric_limits<float>::quiet_NaN()));
  tilec::interpret::launch(fp8_linear<32, 32, 128, 2>,
                           tilec::Grid{uint32_t(tilec::cdiv(m, 32) * tilec::cdiv(n, 32))}, x.data(),
                           w.data(), y.data(), &scale_x, &scale_w, m, n, k, k, k, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        double v = as_double(x[size_t(i) * k + p]) * as_double(w[size_t(j) * k + p]);
        want += v, mag += std::fabs(v);
      }
      want *= 0.125, mag *= 0.125;
      double got = as_double(y[size_t(i) * n + j]);
      ASSERT_LE(std::fabs(got - want), 0x1p-7 * std::fabs(want) + (k + 1) * 0x1p-24 * mag)
          << "at (" << i << ", " << j << "): got " << got << ", want " << want;
    }
}

/// attention_fwd against softmax(q k^T * sm_scale) v in double, every row of every slice;
/// M is the row's log-sum-exp in base 2. O may differ by P's rounding to T before P @ V and
/// O's own rounding.
template <int BLOCK_M, int BLOCK_N, int D, bool CAUSAL> void check_attention(int zh, int n) {
  SCOPED_TRACE(testing::Message() << "BLOCK_M " << BLOCK_M << ", BLOCK_N " << BLOCK_N << ", D " << D
                                  << (CAUSAL ? ", causal" : "") << ", N_CTX " << n);
  using T = tl::half;
  const size_t count = size_t(zh) * n * D;
  auto q = random_values<T>(int(count), 6), k = random_values<T>(int(count), 7),
       v = random_values<T>(int(count), 8);
  std::vector<T> o(count, T(std::numeric_limits<float>::quiet_NaN()));
  std::vector<float> lse(size_t(zh) * n, std::numeric_limits<float>::quiet_NaN());
  const float sm_scale = 1.0f / std::sqrt(float(D));
  tilec::interpret::launch(attention_fwd<BLOCK_M, BLOCK_N, D, CAUSAL, T>,
                           tilec::Grid{uint32_t(tilec::cdiv(n, BLOCK_M)), uint32_t(zh)}, q.data(),
                           k.data(), v.data(), o.data(), lse.data(), sm_scale, n);
  std::vector<double> s(n), acc(D);
  for (int hz = 0; hz < zh; ++hz) {
    const size_t base = size_t(hz) * n * D;
    for (int i = 0; i < n; ++i) {
      const int keys = CAUSAL ? i + 1 : n;
      double mx = -INFINITY;
      for (int j = 0; j < keys; ++j) {
        double dot = 0;
        for (int d = 0; d < D; ++d)
          dot += as_double(q[base + size_t(i) * D + d]) * as_double(k[base + size_t(j) * D + d]);
        s[j] = dot * sm_scale;
        mx = std::max(mx, s[j]);
      }
      double l = 0;
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int j = 0; j < keys; ++j) {
        double p = std::exp(s[j] - mx);
        l += p;
        for (int d = 0; d < D; ++d)
          acc[d] += p * as_double(v[base + size_t(j) * D + d]);
      }
      for (int d = 0; d < D; ++d) {
        double want = acc[d] / l, got = as_double(o[base + size_t(i) * D + d]);
        ASSERT_LE(std::fabs(got - want), 2e-3 + 1e-2 * std::fabs(want))
            << "O at slice " << hz << ", row " << i << ", column " << d;
      }
      double want_m = (mx + std::log(l)) / std::log(2.0);
      ASSERT_NEAR(lse[size_t(hz) * n + i], want_m, 1e-3) << "M at slice " << hz << ", row " << i;
    }
  }
}

TEST(BenchKernels, AttentionForward) {
  check_attention<32, 16, 16, false>(3, 100);
  check_attention<32, 16, 16, true>(3, 100);
  check_attention<64, 32, 32, false>(2, 70); // one partial query block
  check_attention<64, 32, 32, true>(2, 130);
  check_attention<32, 32, 64, true>(1, 64); // N_CTX a multiple of the blocks
}

} // namespace
