// RMSNorm, LayerNorm and GroupNorm (kernels/liger_*.cpp) in the interpreter against
// double-precision references, at sizes that are not multiples of the block, with rows
// padded by a stride whose gap must stay poisoned.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/liger_group_norm.cpp"
#include "kernels/liger_layer_norm.cpp"
#include "kernels/liger_rms_norm.cpp"

using namespace corpus;

TEST(CorpusNorms, RmsNormForwardBackward) {
  const int rows = 37, n = 1000, stride = n + 3, rpp = 8, programs = (rows + rpp - 1) / rpp;
  const float eps = 1e-6f, offset = 0.5f;
  auto x = uniform(size_t(rows) * stride, -2, 2, 1), w = uniform(n, -1, 1, 2);
  auto dy = uniform(size_t(rows) * stride, -1, 1, 3);
  auto y = poisoned(x.size()), rstd = poisoned(rows), dx = poisoned(x.size());
  auto dw = poisoned(size_t(programs) * n);
  tilec::interpret::launch(rms_norm_forward_kernel<float, 1024>, tilec::Grid{rows}, y.data(),
                           stride, x.data(), stride, w.data(), rstd.data(), 1, n, eps, offset);
  tilec::interpret::launch(rms_norm_backward_kernel<float, 1024>, tilec::Grid{programs},
                           dy.data(), stride, dx.data(), stride, x.data(), stride, w.data(),
                           rstd.data(), 1, dw.data(), n, rows, n, offset, rpp);
  std::vector<double> dw_ref(n, 0.0);
  for (int r = 0; r < rows; ++r) {
    const float *xr = &x[size_t(r) * stride], *dyr = &dy[size_t(r) * stride];
    double ms = 0, mx = 0;
    for (int c = 0; c < n; ++c)
      ms += double(xr[c]) * xr[c];
    const double rs = 1 / std::sqrt(ms / n + eps);
    ASSERT_TRUE(close(rstd[r], rs, 0, 1e-5, "rstd", r));
    for (int c = 0; c < n; ++c)
      mx += dyr[c] * (w[c] + offset) * double(xr[c]);
    for (int c = 0; c < n; ++c) {
      const size_t i = size_t(r) * stride + c;
      ASSERT_TRUE(close(y[i], xr[c] * rs * (w[c] + offset), 1e-5, 1e-5, "y", i));
      const double m = dyr[c] * (w[c] + offset);
      ASSERT_TRUE(close(dx[i], rs * m - rs * rs * rs * mx / n * xr[c], 1e-5, 1e-4, "dx", i));
      dw_ref[c] += dyr[c] * xr[c] * rs;
    }
    for (int c = n; c < stride; ++c)
      ASSERT_TRUE(untouched(y[size_t(r) * stride + c]) && untouched(dx[size_t(r) * stride + c]));
  }
  for (int c = 0; c < n; ++c) {
    double got = 0;
    for (int p = 0; p < programs; ++p)
      got += dw[size_t(p) * n + c];
    ASSERT_TRUE(close(got, dw_ref[c], 1e-4, 1e-4, "dw", c));
  }
}

TEST(CorpusNorms, LayerNormForwardBackward) {
  const int rows = 29, n = 777, stride = n + 5;
  constexpr int rpp = 4;
  const int programs = (rows + rpp - 1) / rpp;
  const float eps = 1e-5f;
  auto x = uniform(size_t(rows) * stride, -3, 5, 4), w = uniform(n, -1, 1, 5);
  auto b = uniform(n, -1, 1, 6), dy = uniform(size_t(rows) * stride, -1, 1, 7);
  auto y = poisoned(x.size()), mean = poisoned(rows), rstd = poisoned(rows);
  auto dx = poisoned(x.size()), dw = poisoned(size_t(programs) * n);
  auto db = poisoned(size_t(programs) * n);
  tilec::interpret::launch(layer_norm_forward_kernel<float, 1024>, tilec::Grid{rows}, y.data(),
                           stride, x.data(), stride, w.data(), b.data(), mean.data(), 1,
                           rstd.data(), 1, n, eps);
  tilec::interpret::launch(layer_norm_backward_kernel<float, rpp, 1024>, tilec::Grid{programs},
                           x.data(), stride, w.data(), mean.data(), 1, rstd.data(), 1, dx.data(),
                           stride, dw.data(), n, db.data(), n, dy.data(), stride, rows, n);
  std::vector<double> dw_ref(n, 0.0), db_ref(n, 0.0);
  for (int r = 0; r < rows; ++r) {
    const float *xr = &x[size_t(r) * stride], *dyr = &dy[size_t(r) * stride];
    double mu = 0, var = 0;
    for (int c = 0; c < n; ++c)
      mu += xr[c];
    mu /= n;
    for (int c = 0; c < n; ++c)
      var += (xr[c] - mu) * (xr[c] - mu);
    const double rs = 1 / std::sqrt(var / n + eps);
    ASSERT_TRUE(close(mean[r], mu, 1e-6, 1e-5, "mean", r));
    ASSERT_TRUE(close(rstd[r], rs, 0, 1e-5, "rstd", r));
    double c1 = 0, c2 = 0;
    for (int c = 0; c < n; ++c) {
      const double xhat = (xr[c] - mu) * rs, wdy = w[c] * double(dyr[c]);
      c1 += xhat * wdy / n;
      c2 += wdy / n;
    }
    for (int c = 0; c < n; ++c) {
      const size_t i = size_t(r) * stride + c;
      const double xhat = (xr[c] - mu) * rs;
      ASSERT_TRUE(close(y[i], xhat * w[c] + b[c], 1e-5, 1e-5, "y", i));
      ASSERT_TRUE(close(dx[i], (w[c] * dyr[c] - (xhat * c1 + c2)) * rs, 1e-5, 1e-4, "dx", i));
      dw_ref[c] += dyr[c] * xhat;
      db_ref[c] += dyr[c];
    }
    for (int c = n; c < stride; ++c)
      ASSERT_TRUE(untouched(y[size_t(r) * stride + c]) && untouched(dx[size_t(r) * stride + c]));
  }
  for (int c = 0; c < n; ++c) {
    double gw = 0, gb = 0;
    for (int p = 0; p < programs; ++p) {
      gw += dw[size_t(p) * n + c];
      gb += db[size_t(p) * n + c];
    }
    ASSERT_TRUE(close(gw, dw_ref[c], 1e-4, 1e-4, "dw", c));
    ASSERT_TRUE(close(gb, db_ref[c], 1e-4, 1e-4, "db", c));
  }
}

TEST(CorpusNorms, GroupNormForward) {
  // [batch, channels, spatial] viewed as [batch, groups, channels / groups * spatial]
  const int batch = 3, channels = 6, groups = 2, spatial = 37;
  const int cpg = channels / groups, hidden = cpg * spatial;
  const float eps = 1e-5f;
  auto x = uniform(size_t(batch) * channels * spatial, -2, 3, 8);
  auto w = uniform(channels, -1, 1, 9), b = uniform(channels, -1, 1, 10);
  auto y = poisoned(x.size()), mean = poisoned(batch * groups), rstd = poisoned(batch * groups);
  tilec::interpret::launch(group_norm_forward_kernel<float, 32>, tilec::Grid{batch, groups},
                           y.data(), groups * hidden, hidden, x.data(), groups * hidden, hidden,
                           mean.data(), groups, 1, rstd.data(), groups, 1, w.data(), b.data(),
                           hidden, cpg, eps);
  for (int bi = 0; bi < batch; ++bi)
    for (int g = 0; g < groups; ++g) {
      const size_t base = (size_t(bi) * groups + g) * hidden;
      double mu = 0, sq = 0;
      for (int i = 0; i < hidden; ++i) {
        mu += x[base + i];
        sq += double(x[base + i]) * x[base + i];
      }
      mu /= hidden;
      const double rs = 1 / std::sqrt(sq / hidden - mu * mu + eps);
      ASSERT_TRUE(close(mean[bi * groups + g], mu, 1e-6, 1e-5, "mean", bi * groups + g));
      ASSERT_TRUE(close(rstd[bi * groups + g], rs, 0, 1e-4, "rstd", bi * groups + g));
      for (int i = 0; i < hidden; ++i) {
        const int ch = g * cpg + i / spatial;
        ASSERT_TRUE(close(y[base + i], (x[base + i] - mu) * rs * w[ch] + b[ch], 1e-4, 1e-4, "y",
                          base + i));
      }
    }
}
