// vLLM's per-token-group fp8 quantization (kernels/vllm_fp8_group_quant.cpp) in the interpreter
// against references computed on the host: groups of 96 (in blocks of 128, the tail masked) on
// rows strided past their end, row- and column-major scales, power-of-two (e8m0) scales, and the
// fused silu-and-multiply variant with a program past the last row (it returns at once).
// Scales must match exactly (the same float operations); values within e4m3's rounding.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/vllm_fp8_group_quant.cpp"

#include <algorithm>

using namespace corpus;

namespace {

using bf16 = tl::bfloat16;
using e4m3 = tl::float8_e4m3;

constexpr float kFp8Max = 448.0f, kEps = 1e-10f;

/// The group's scale as the kernels compute it, in float.
float scale_of(const float *y, int n, bool ue8m0) {
  float absmax = 0;
  for (int i = 0; i < n; ++i)
    absmax = std::max(absmax, std::fabs(y[i]));
  const float raw = std::max(absmax, kEps) / kFp8Max;
  return ue8m0 ? std::exp2(std::ceil(std::log2(raw))) : raw;
}

/// y / scale within e4m3's rounding (3 mantissa bits; subnormals below 2^-6 step by 2^-9).
::testing::AssertionResult quantized(e4m3 got, float y, float scale, size_t i) {
  const double want = std::clamp(double(y) / scale, -448.0, 448.0);
  return close(float(got), want, 1.0 / 512, 1.0 / 16, "y_q", i);
}

std::vector<bf16> bf16_inputs(size_t n, unsigned seed) {
  auto f = uniform(n, -4, 4, seed);
  for (size_t i = 0; i < n; i += 37) // outliers: groups' scales differ
    f[i] *= 30;
  return std::vector<bf16>(f.begin(), f.end());
}

template <bool COLMAJOR, bool UE8M0> void groupQuant() {
  SCOPED_TRACE(::testing::Message() << "colmajor " << COLMAJOR << ", ue8m0 " << UE8M0);
  const int rows = 5, group = 96, groups = 3, cols = group * groups, stride = cols + 12;
  const int col_stride = rows + 3; // column-major scales, padded columns
  const auto y = bf16_inputs(size_t(rows) * stride, 61);
  std::vector<e4m3> y_q(size_t(rows) * cols + 1, e4m3(-1.0f));
  const e4m3 unwritten = y_q.back();
  auto y_s = poisoned(COLMAJOR ? size_t(groups) * col_stride : size_t(rows) * groups);
  const float fp8_min = -kFp8Max, fp8_max = kFp8Max;
  if constexpr (COLMAJOR)
    tilec::interpret::launch(per_token_group_quant_fp8_colmajor<bf16, e4m3, UE8M0, 128>,
                             tilec::Grid{rows * groups}, y.data(), y_q.data(), y_s.data(), group,
                             cols, stride, col_stride, kEps, fp8_min, fp8_max);
  else
    tilec::interpret::launch(per_token_group_quant_fp8<bf16, e4m3, UE8M0, 128>,
                             tilec::Grid{rows * groups}, y.data(), y_q.data(), y_s.data(), group,
                             cols, stride, kEps, fp8_min, fp8_max);
  for (int r = 0; r < rows; ++r)
    for (int g = 0; g < groups; ++g) {
      std::vector<float> yf(group);
      for (int i = 0; i < group; ++i)
        yf[size_t(i)] = float(y[size_t(r) * stride + size_t(g) * group + size_t(i)]);
      const float want = scale_of(yf.data(), group, UE8M0);
      const size_t at = COLMAJOR ? size_t(g) * col_stride + r : size_t(r) * groups + g;
      ASSERT_EQ(y_s[at], want) << "row " << r << ", group " << g;
      if (UE8M0)
        ASSERT_EQ(std::exp2(std::round(std::log2(want))), want) << "a power of two";
      for (int i = 0; i < group; ++i) {
        const size_t q = size_t(r) * cols + size_t(g) * group + size_t(i);
        ASSERT_TRUE(quantized(y_q[q], yf[size_t(i)], want, q));
      }
    }
  EXPECT_EQ(float(y_q.back()), float(unwritten)) << "nothing past the last group";
  if (COLMAJOR)
    for (int g = 0; g < groups; ++g)
      for (int r = rows; r < col_stride; ++r)
        EXPECT_TRUE(untouched(y_s[size_t(g) * col_stride + r])) << "padding of column " << g;
}

} // namespace

TEST(CorpusFp8GroupQuant, RowMajorScales) { groupQuant<false, false>(); }
TEST(CorpusFp8GroupQuant, RowMajorPowerOfTwoScales) { groupQuant<false, true>(); }
TEST(CorpusFp8GroupQuant, ColumnMajorScales) { groupQuant<true, false>(); }
TEST(CorpusFp8GroupQuant, ColumnMajorPowerOfTwoScales) { groupQuant<true, true>(); }

TEST(CorpusFp8GroupQuant, SiluMulColumnMajor) {
  constexpr int G = 128, BM = 8;
  const int M = 16, N = 2 * 2 * G, N_2 = N / 2, groups = N_2 / G;
  const int64_t col_stride = M + 4;
  const auto x = bf16_inputs(size_t(M) * N, 62);
  std::vector<e4m3> y_q(size_t(M) * N_2, e4m3(-1.0f));
  auto y_s = poisoned(size_t(groups) * size_t(col_stride));
  // Three row blocks for two blocks of rows: the third program returns before any access.
  tilec::interpret::launch(silu_mul_per_token_group_quant_fp8_colmajor<bf16, e4m3, false, G, BM, G>,
                           tilec::Grid{M / BM + 1, uint32_t(groups)}, x.data(), y_q.data(),
                           y_s.data(), M, N, col_stride, kEps, -kFp8Max, kFp8Max);
  for (int m = 0; m < M; ++m)
    for (int g = 0; g < groups; ++g) {
      std::vector<float> y(G);
      for (int i = 0; i < G; ++i) {
        const size_t c = size_t(g) * G + size_t(i);
        const float a = float(x[size_t(m) * N + c]), b = float(x[size_t(m) * N + N_2 + c]);
        const float silu = float(bf16(a / (1.0f + std::exp(-a))));
        y[size_t(i)] = float(bf16(silu * b));
      }
      const float want = scale_of(y.data(), G, false);
      ASSERT_TRUE(close(y_s[size_t(g) * size_t(col_stride) + size_t(m)], want, 0, 1e-6, "y_s",
                        size_t(m)))
          << "group " << g;
      for (int i = 0; i < G; ++i) {
        const size_t q = size_t(m) * N_2 + size_t(g) * G + size_t(i);
        ASSERT_TRUE(quantized(y_q[q], y[size_t(i)], want, q));
      }
    }
  for (int g = 0; g < groups; ++g)
    for (int64_t m = M; m < col_stride; ++m)
      EXPECT_TRUE(untouched(y_s[size_t(g) * size_t(col_stride) + size_t(m)]));
}
