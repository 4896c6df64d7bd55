// DeepSeek-V3's fp8 kernels (kernels/deepseek_fp8.cpp) in the interpreter against
// double-precision references: block-wise quantization of activations and weights (scales
// exactly max|x| / 448, values within e4m3's rounding), dequantization, and the fp8 GEMM with
// per-block scales at sizes that are not multiples of its blocks (M, N; K with a partial last
// step), outputs poisoned before each run.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/deepseek_fp8.cpp"
#include "kernels/deepseek_fp8_gemm.cpp"

#include <algorithm>

using namespace corpus;

namespace {

using bf16 = tl::bfloat16;
using e4m3 = tl::float8_e4m3;

constexpr double kE4m3Rel = 1.0 / 16; // e4m3 keeps 3 bits: rounding is within 2^-4

template <class T> std::vector<T> as(const std::vector<float> &v) {
  return std::vector<T>(v.begin(), v.end());
}

/// max |x| / 448 over the elements with index in [0, n) that keep(i) selects.
template <class T, class Keep> float scale_of(const std::vector<T> &x, size_t n, Keep keep) {
  float m = 0;
  for (size_t i = 0; i < n; ++i)
    if (keep(i))
      m = std::max(m, std::fabs(float(x[i])));
  return m / 448.0f;
}

} // namespace

TEST(CorpusDeepSeek, ActQuant) {
  const int rows = 5, K = 384, B = 128; // K a multiple of the block, as the original asserts
  auto x = as<bf16>(uniform(size_t(rows) * K, -3, 3, 71));
  for (int c = 0; c < K; c += 131) // a few large values: each block's scale differs
    x[size_t(c % rows) * K + c] = bf16(20.0f + c);
  std::vector<e4m3> y(x.size(), e4m3(-1.0f));
  auto s = poisoned(size_t(rows) * K / B + 1);
  tilec::interpret::launch(act_quant_kernel<bf16, e4m3, B>, tilec::Grid{rows * K / B}, x.data(),
                           y.data(), s.data());
  for (int b = 0; b < rows * K / B; ++b) {
    float want = scale_of(x, x.size(), [&](size_t i) { return int(i) / B == b; });
    ASSERT_EQ(s[size_t(b)], want) << "block " << b;
    for (int i = b * B; i < b * B + B; ++i)
      ASSERT_TRUE(close(float(y[size_t(i)]), double(float(x[size_t(i)])) / want, 1e-3, kE4m3Rel,
                        "y", size_t(i)));
  }
  EXPECT_TRUE(untouched(s.back()));
}

TEST(CorpusDeepSeek, WeightQuantAndDequant) {
  const int M = 200, N = 300, B = 128; // 2 x 3 blocks, the last ones partial
  const int gm = (M + B - 1) / B, gn = (N + B - 1) / B;
  auto w = as<bf16>(uniform(size_t(M) * N, -0.5f, 0.5f, 72));
  w[size_t(150) * N + 290] = bf16(-7.0f); // the partial corner block's largest magnitude
  std::vector<e4m3> q(w.size() + 16, e4m3(-1.0f));
  auto s = poisoned(size_t(gm) * gn + 1);
  tilec::interpret::launch(weight_quant_kernel<bf16, e4m3, B>, tilec::Grid{gm, gn}, w.data(),
                           q.data(), s.data(), M, N);
  for (int bm = 0; bm < gm; ++bm)
    for (int bn = 0; bn < gn; ++bn) {
      float want = scale_of(w, w.size(), [&](size_t i) {
        return int(i) / N / B == bm && int(i) % N / B == bn;
      });
      ASSERT_EQ(s[size_t(bm) * gn + bn], want) << "block " << bm << "," << bn;
    }
  EXPECT_TRUE(untouched(s.back()));
  for (size_t i = w.size(); i < q.size(); ++i)
    ASSERT_EQ(float(q[i]), -1.0f) << "written past the weight at " << i;

  std::vector<bf16> back(w.size() + 16, bf16(-1.0f));
  tilec::interpret::launch(weight_dequant_kernel<e4m3, bf16, B>, tilec::Grid{gm, gn}, q.data(),
                           s.data(), back.data(), M, N);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      size_t i = size_t(r) * N + c;
      double want = double(float(q[i])) * s[size_t(r / B) * gn + c / B];
      ASSERT_TRUE(close(float(back[i]), want, 0, 1.0 / 128, "dequantized", i));
      ASSERT_TRUE(close(float(back[i]), float(w[i]), 1e-3, 2 * kE4m3Rel, "round trip", i));
    }
  for (size_t i = w.size(); i < back.size(); ++i)
    ASSERT_EQ(float(back[i]), -1.0f) << "written past the weight at " << i;
}

TEST(CorpusDeepSeek, Fp8GemmWithBlockScales) {
  constexpr int N = 200, K = 320; // N: blocks of 64 wrap past it; K: a last step of 64
  const int M = 77, kb = (K + 127) / 128, nb = (N + 127) / 128;
  auto a = as<e4m3>(uniform(size_t(M) * K, -2, 2, 73));
  auto b = as<e4m3>(uniform(size_t(N) * K, -2, 2, 74)); // [N, K], a torch.nn.Linear weight
  auto a_s = uniform(size_t(M) * kb, 0.5f, 2, 75);
  auto b_s = uniform(size_t(nb) * kb, 0.5f, 2, 76);
  std::vector<bf16> c(size_t(M) * N + 8, bf16(-1.0f));
  constexpr int BM = 32, BN = 64, BK = 128;
  tilec::interpret::launch(fp8_gemm_kernel<e4m3, bf16, N, K, BM, BN, BK>,
                           tilec::Grid{(M + BM - 1) / BM, (N + BN - 1) / BN}, a.data(), b.data(),
                           c.data(), a_s.data(), b_s.data(), M);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double want = 0;
      for (int step = 0; step < kb; ++step) {
        double part = 0;
        for (int k = step * 128; k < std::min(K, step * 128 + 128); ++k)
          part += double(float(a[size_t(m) * K + k])) * double(float(b[size_t(n) * K + k]));
        want += part * a_s[size_t(m) * kb + step] * b_s[size_t(n / 128) * kb + step];
      }
      ASSERT_TRUE(close(float(c[size_t(m) * N + n]), want, 1e-2, 1.0 / 128, "c",
                        size_t(m) * N + n));
    }
  for (size_t i = size_t(M) * N; i < c.size(); ++i)
    ASSERT_EQ(float(c[i]), -1.0f) << "written past C at " << i;
}
