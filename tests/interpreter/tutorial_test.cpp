// Kernels from Triton's tutorials written with tilec: fused softmax (02), seeded dropout
// (04) and the layer-norm forward pass (05), against double-precision references.
#include "support.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace tilec_test;

// Fused softmax: one row per program (rows strided by the grid), BLOCK >= n_cols; masked
// lanes load -inf so they neither win the max nor add to the sum (exp(-inf) = 0).
template <int BLOCK>
TILEC_KERNEL void softmax_kernel(float *out, const float *in, int in_stride, int out_stride,
                                 int n_rows, int n_cols) {
  int start = tl::program_id(0), step = tl::num_programs(0);
  for (int row = start; row < n_rows; row += step) {
    auto cols = tl::arange<0, BLOCK>();
    auto mask = cols < n_cols;
    auto x = tl::load(in + row * in_stride + cols, mask, -INFINITY);
    auto z = x - tl::max<0>(x);
    auto num = tl::exp(z);
    auto den = tl::sum<0>(num);
    tl::store(out + row * out_stride + cols, num / den, mask);
  }
}

TEST(Tutorial, FusedSoftmax) {
  const int rows = 37, cols = 1000;
  auto x = random_floats(rows * cols, -20.f, 20.f, 91);
  for (uint32_t programs : {37u, 8u}) {
    Rows<float> out(rows, cols);
    tilec::interpret::launch(softmax_kernel<1024>, tilec::Grid{programs}, out.data(), x.data(),
                             cols, out.stride(), rows, cols);
    for (int r = 0; r < rows; ++r) {
      const float *row = x.data() + r * cols;
      double m = -INFINITY, s = 0;
      for (int c = 0; c < cols; ++c)
        m = std::max(m, double(row[c]));
      for (int c = 0; c < cols; ++c)
        s += std::exp(double(row[c]) - m);
      double total = 0;
      for (int c = 0; c < cols; ++c) {
        const double want = std::exp(double(row[c]) - m) / s;
        ASSERT_NEAR(out.at(r, c), want, 1e-6 * want + 1e-9) << r << " " << c;
        total += out.at(r, c);
      }
      ASSERT_NEAR(total, 1.0, 1e-5) << r;
    }
    EXPECT_TRUE(out.guards_intact());
  }
}

// Layer norm forward (tutorial 05): one row per program, the row walked in BLOCK chunks;
// statistics in float whatever the input type.
template <class T, int BLOCK>
TILEC_KERNEL void layer_norm_fwd(const T *X, T *Y, const float *W, const float *B, float *Mean,
                                 float *Rstd, int stride, int N, float eps) {
  int row = tl::program_id(0);
  X += row * stride;
  Y += row * stride;
  auto acc = tl::zeros<float, BLOCK>();
  for (int off = 0; off < N; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    acc += tl::cast<float>(tl::load(X + cols, cols < N));
  }
  float mean = tl::sum(acc) / N;
  auto acc_var = tl::zeros<float, BLOCK>();
  for (int off = 0; off < N; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto x = tl::cast<float>(tl::load(X + cols, cols < N));
    x = tl::where(cols < N, x - mean, 0.0f);
    acc_var += x * x;
  }
  float var = tl::sum(acc_var) / N;
  float rstd = tl::rsqrt(var + eps);
  tl::store(Mean + row, mean);
  tl::store(Rstd + row, rstd);
  for (int off = 0; off < N; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto mask = cols < N;
    auto w = tl::load(W + cols, mask);
    auto b = tl::load(B + cols, mask);
    auto x = tl::cast<float>(tl::load(X + cols, mask));
    auto y = (x - mean) * rstd * w + b;
    tl::store(Y + cols, y, mask);
  }
}

template <class T> void check_layer_norm(int rows, int n, double tol) {
  auto xf = random_floats(rows * n, -3.f, 5.f, 92);
  std::vector<T> x(xf.begin(), xf.end());
  auto w = random_floats(n, 0.5f, 1.5f, 93), b = random_floats(n, -1.f, 1.f, 94);
  Rows<T> y(rows, n);
  Rows<float> mean(1, rows), rstd(1, rows);
  // The kernel uses one stride for X and Y: give X the same padded rows.
  std::vector<T> xs(size_t(rows) * y.stride());
  for (int r = 0; r < rows; ++r)
    std::copy(x.begin() + r * n, x.begin() + (r + 1) * n, xs.begin() + size_t(r) * y.stride());
  const float eps = 1e-5f;
  tilec::interpret::launch(layer_norm_fwd<T, 256>, tilec::Grid{uint32_t(rows)}, xs.data(), y.data(),
                           w.data(), b.data(), mean.data(), rstd.data(), y.stride(), n, eps);
  for (int r = 0; r < rows; ++r) {
    double m = 0, v = 0;
    for (int c = 0; c < n; ++c)
      m += float(x[r * n + c]);
    m /= n;
    for (int c = 0; c < n; ++c)
      v += (float(x[r * n + c]) - m) * (float(x[r * n + c]) - m);
    v /= n;
    const double rs = 1 / std::sqrt(v + eps);
    ASSERT_NEAR(mean.at(0, r), m, 1e-5 * (1 + std::fabs(m))) << r;
    ASSERT_NEAR(rstd.at(0, r), rs, 1e-5 * rs) << r;
    for (int c = 0; c < n; ++c) {
      const double want = (float(x[r * n + c]) - m) * rs * w[c] + b[c];
      ASSERT_NEAR(float(y.at(r, c)), want, tol * (1 + std::fabs(want))) << r << " " << c;
    }
  }
  EXPECT_TRUE(y.guards_intact() && mean.guards_intact() && rstd.guards_intact());
}

TEST(Tutorial, LayerNormForward) {
  check_layer_norm<float>(37, 1000, 1e-5);
  check_layer_norm<float>(3, 1, 1e-5);
  check_layer_norm<tl::half>(37, 1000 + 24, 2e-3);
}

// Seeded dropout (tutorial 04): the keep mask is a function of (seed, offset), so it is
// recomputed instead of stored. p is the probability of dropping an element.
template <int BLOCK>
TILEC_KERNEL void seeded_dropout(const float *x, float *out, int n, float p, int seed) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  auto keep = tl::rand(seed, offs) > p;
  tl::store(out + offs, tl::where(keep, v / (1 - p), 0.0f), mask);
}

TEST(Tutorial, SeededDropout) {
  for (int n : kSizes) {
    auto x = random_nonzero(n, 0.5f, 2.f, 95);
    const float p = 0.3f;
    Rows<float> a(1, n), b(1, n), c(1, n);
    tilec::interpret::launch(seeded_dropout<1024>, grid_for(n, 1024), x.data(), a.data(), n, p,
                             123);
    tilec::interpret::launch(seeded_dropout<256>, grid_for(n, 256), x.data(), b.data(), n, p, 123);
    tilec::interpret::launch(seeded_dropout<1024>, grid_for(n, 1024), x.data(), c.data(), n, p,
                             124);
    int kept = 0, same_as_other_seed = 0;
    for (int i = 0; i < n; ++i) {
      ASSERT_TRUE(same_bits(a.at(0, i), b.at(0, i))) << i; // same seed, any block size
      const bool k = tl::rand(123, i) > p;                 // the mask, recomputed
      ASSERT_EQ(a.at(0, i), k ? x[i] / (1 - p) : 0.0f) << i;
      kept += k;
      same_as_other_seed += (a.at(0, i) != 0) == (c.at(0, i) != 0);
    }
    if (n > 1000) {
      EXPECT_NEAR(double(kept) / n, 1 - p, 0.01);
      EXPECT_LT(same_as_other_seed, n * 0.7); // independent masks agree ~58% of the time
    }
    EXPECT_TRUE(a.guards_intact() && b.guards_intact() && c.guards_intact()) << n;
  }
}
