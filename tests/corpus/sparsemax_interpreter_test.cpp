// Liger-Kernel's sparsemax (kernels/liger_sparsemax.cpp) in the interpreter against a double
// sparsemax: 5 rows of 1000 columns (4 blocks of 256, the last partly masked) with row strides
// past the row, the threshold found on the host by sorting (as the original's Python does);
// the forward's zeros and the backward's gradient over the support, outputs poisoned.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/liger_sparsemax.cpp"

#include <algorithm>
#include <functional>

using namespace corpus;

namespace {

constexpr int rows = 5, cols = 1000, stride = 1003;

/// The sparsemax threshold of x[0..n): tau such that sum(max(x - tau, 0)) = 1.
double threshold(const float *x, int n) {
  std::vector<double> z(x, x + n);
  std::sort(z.begin(), z.end(), std::greater<double>());
  double cumulative = 0, support_sum = 0;
  int k = 0;
  for (int j = 0; j < n; ++j) {
    cumulative += z[size_t(j)];
    if (1 + double(j + 1) * z[size_t(j)] > cumulative) {
      k = j + 1;
      support_sum = cumulative;
    }
  }
  return (support_sum - 1) / std::max(k, 1);
}

} // namespace

TEST(CorpusSparsemax, ForwardThenBackward) {
  auto x = uniform(size_t(rows) * stride, -3, 3, 91);
  std::vector<float> tau(rows);
  for (int r = 0; r < rows; ++r)
    tau[size_t(r)] = float(threshold(&x[size_t(r) * stride], cols));
  auto out = poisoned(size_t(rows) * stride);
  tilec::interpret::launch(sparsemax_forward_kernel<float, 256>, tilec::Grid{rows}, x.data(),
                           stride, tau.data(), 1, out.data(), stride, cols);
  for (int r = 0; r < rows; ++r) {
    double total = 0;
    int support = 0;
    for (int c = 0; c < stride; ++c) {
      const size_t i = size_t(r) * stride + c;
      if (c >= cols) {
        ASSERT_TRUE(untouched(out[i])) << "past the row, column " << c;
        continue;
      }
      const double want = std::max(double(x[i]) - double(tau[size_t(r)]), 0.0);
      ASSERT_TRUE(close(out[i], want, 1e-6, 1e-6, "out", i));
      total += out[i];
      support += out[i] > 0;
    }
    EXPECT_NEAR(total, 1.0, 1e-4) << "row " << r << ": a sparsemax row sums to 1";
    EXPECT_GT(support, 0);
    EXPECT_LT(support, cols) << "row " << r << ": some outputs are exactly zero";
  }

  auto go = uniform(size_t(rows) * stride, -1, 1, 92);
  auto gi = poisoned(size_t(rows) * stride);
  tilec::interpret::launch(sparsemax_backward_kernel<float, 256>, tilec::Grid{rows}, out.data(),
                           stride, go.data(), stride, gi.data(), stride, cols);
  for (int r = 0; r < rows; ++r) {
    double sum = 0, count = 0;
    for (int c = 0; c < cols; ++c) {
      const size_t i = size_t(r) * stride + c;
      if (out[i] > 0) {
        sum += go[i];
        count += 1;
      }
    }
    const double mean = sum / std::max(count, 1e-9);
    for (int c = 0; c < stride; ++c) {
      const size_t i = size_t(r) * stride + c;
      if (c >= cols) {
        ASSERT_TRUE(untouched(gi[i])) << "past the row, column " << c;
        continue;
      }
      const double want = out[i] > 0 ? double(go[i]) - mean : 0.0;
      ASSERT_TRUE(close(gi[i], want, 1e-5, 1e-5, "gi", i));
    }
  }
}

TEST(CorpusSparsemax, BackwardRoundsTheMeanAsTheOutputType) {
  // bf16: the support's mean is rounded to bf16 before it is subtracted (the original's
  // tl.cast to the output type and back).
  const int n = 300;
  std::vector<tl::bfloat16> o(n), go(n), gi(n);
  auto src = uniform(size_t(n), -1, 1, 93);
  double sum = 0, count = 0;
  for (int c = 0; c < n; ++c) {
    o[size_t(c)] = tl::bfloat16(c % 3 == 0 ? 0.25f : 0.0f);
    go[size_t(c)] = tl::bfloat16(src[size_t(c)]);
    if (c % 3 == 0) {
      sum += float(go[size_t(c)]);
      count += 1;
    }
  }
  tilec::interpret::launch(sparsemax_backward_kernel<tl::bfloat16, 128>, tilec::Grid{1}, o.data(),
                           n, go.data(), n, gi.data(), n, n);
  const float mean = float(tl::bfloat16(float(sum / count)));
  for (int c = 0; c < n; ++c) {
    const float want = c % 3 == 0 ? float(tl::bfloat16(float(go[size_t(c)]) - mean)) : 0.0f;
    ASSERT_EQ(float(gi[size_t(c)]), want) << "column " << c;
  }
}
