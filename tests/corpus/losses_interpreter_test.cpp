// Fused cross-entropy and KL divergence (kernels/liger_*.cpp) in the interpreter against
// double-precision references, over vocabularies that are not multiples of the block. The
// cross-entropy writes its gradient over the logits, one row is ignored (all zeros, no loss).
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/liger_cross_entropy.cpp"
#include "kernels/liger_kl_div.cpp"

#include <algorithm>

using namespace corpus;

TEST(CorpusLosses, CrossEntropyLossAndGradient) {
  const int rows = 6, V = 1000, stride = 1001, ignore = -100;
  const float smoothing = 0.1f, z_scale = 1e-3f;
  auto x0 = uniform(size_t(rows) * stride, -8, 8, 21);
  std::vector<int64_t> y = {3, 999, ignore, 0, 512, 257};
  const int n_non_ignore = 5;
  auto x = x0;
  std::vector<float> loss = poisoned(rows);
  tilec::interpret::launch(liger_cross_entropy_kernel<float, REDUCTION_MEAN, 256>,
                           tilec::Grid{rows}, x.data(), int64_t(stride), y.data(), 1,
                           loss.data(), 1, V, n_non_ignore, ignore, z_scale, smoothing);
  for (int r = 0; r < rows; ++r) {
    const float *xr = &x0[size_t(r) * stride];
    if (y[r] == ignore) {
      for (int c = 0; c < V; ++c)
        ASSERT_EQ(x[size_t(r) * stride + c], 0.0f) << "ignored row, column " << c;
      ASSERT_TRUE(untouched(loss[r])) << "the ignored row's loss is left as it was";
      continue;
    }
    const double m = *std::max_element(xr, xr + V);
    double d = 0, sum_x = 0;
    for (int c = 0; c < V; ++c) {
      d += std::exp(xr[c] - m);
      sum_x += xr[c];
    }
    const double lse = m + std::log(d), eps = double(smoothing) / V;
    double want = (lse - xr[y[r]]) * (1 - smoothing) - eps * sum_x + smoothing * lse;
    want = want / n_non_ignore + z_scale * lse * lse / n_non_ignore;
    ASSERT_TRUE(close(loss[r], want, 1e-6, 1e-5, "loss", r));
    for (int c = 0; c < V; ++c) {
      const double p = std::exp(xr[c] - lse);
      double g = (1 + 2 * z_scale * lse) * p - eps - (c == y[r] ? 1 - smoothing : 0);
      ASSERT_TRUE(close(x[size_t(r) * stride + c], g / n_non_ignore, 1e-7, 1e-4, "dx",
                        size_t(r) * stride + c));
    }
    ASSERT_EQ(x[size_t(r) * stride + V], x0[size_t(r) * stride + V]) << "row " << r << " gap";
  }
}

TEST(CorpusLosses, KlDivForwardBackward) {
  const int rows = 5, V = 1000, stride = 1003;
  const float eps = 1e-10f;
  auto y = uniform(size_t(rows) * stride, -9, -1, 22);    // log-probabilities
  auto gt = uniform(size_t(rows) * stride, 0, 0.01f, 23); // probabilities
  auto row_loss = poisoned(rows), all_loss = poisoned(y.size()), grads = poisoned(y.size());
  tilec::interpret::launch(
      kldiv_kernel_forward<float, 256, false, REDUCTION_MODE_BATCHMEAN>, tilec::Grid{rows},
      y.data(), stride, gt.data(), stride, row_loss.data(), 1, V, eps);
  tilec::interpret::launch(kldiv_kernel_forward<float, 256, false, REDUCTION_MODE_NONE>,
                           tilec::Grid{rows}, y.data(), stride, gt.data(), stride,
                           all_loss.data(), stride, V, eps);
  tilec::interpret::launch(kldiv_kernel_backward<float, 256, false>, tilec::Grid{rows},
                           gt.data(), stride, grads.data(), stride, V);
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int c = 0; c < V; ++c) {
      const size_t i = size_t(r) * stride + c;
      const double l = gt[i] * (std::log(std::max(double(gt[i]), double(eps))) - y[i]);
      sum += l;
      ASSERT_TRUE(close(all_loss[i], l, 1e-8, 1e-5, "loss", i));
      ASSERT_EQ(grads[i], -gt[i]) << i;
    }
    ASSERT_TRUE(close(row_loss[r], sum, 1e-6, 1e-5, "row loss", r));
    for (int c = V; c < stride; ++c)
      ASSERT_TRUE(untouched(all_loss[size_t(r) * stride + c]) &&
                  untouched(grads[size_t(r) * stride + c]));
  }
}
