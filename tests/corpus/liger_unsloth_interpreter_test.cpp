// Liger-Kernel's JSD, TVD, DyT and fused add + RMSNorm, and Unsloth's RMSNorm, GEGLU and
// cross-entropy (kernels/liger_jsd.cpp, liger_tvd.cpp, liger_dyt.cpp,
// liger_fused_add_rms_norm.cpp, unsloth_rms_layernorm.cpp, unsloth_geglu.cpp,
// unsloth_cross_entropy.cpp) in the interpreter against double-precision references: sizes
// that are not multiples of the blocks, rows padded by strides whose gaps must stay poisoned,
// every output poisoned first and every element of it checked. Buffers go through the checked
// launch, so an access outside one is an error naming it.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/liger_dyt.cpp"
#include "kernels/liger_fused_add_rms_norm.cpp"
#include "kernels/liger_jsd.cpp"
#include "kernels/liger_tvd.cpp"
#include "kernels/unsloth_cross_entropy.cpp"
#include "kernels/unsloth_geglu.cpp"
#include "kernels/unsloth_rms_layernorm.cpp"

#include <algorithm>
#include <cstdint>

using namespace corpus;
using tilec::interpret::checked;

namespace {

/// Every element of row r past n (the stride's gap) is still the poison.
::testing::AssertionResult gap_untouched(const std::vector<float> &v, int rows, int n, int stride,
                                         const char *what) {
  for (int r = 0; r < rows; ++r)
    for (int c = n; c < stride; ++c)
      if (!untouched(v[size_t(r) * stride + c]))
        return ::testing::AssertionFailure()
               << what << ": row " << r << " gap column " << c << " was written";
  return ::testing::AssertionSuccess();
}

double gelu_exact(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }
double gelu_exact_grad(double x) {
  return 0.5 * (1 + std::erf(x / std::sqrt(2.0))) +
         x * std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI);
}
double gelu_tanh(double x) {
  const double k = std::sqrt(2 / M_PI);
  return 0.5 * x * (1 + std::tanh(k * (x + 0.044715 * x * x * x)));
}
double gelu_tanh_grad(double x) {
  const double k = std::sqrt(2 / M_PI), u = k * (x + 0.044715 * x * x * x);
  const double t = std::tanh(u);
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Liger JSD: beta 0 (forward KL), 1 (reverse KL) and in between, with and without labels.

template <bool HAS_LABEL> void run_jsd(float beta) {
  SCOPED_TRACE(::testing::Message() << "beta " << beta << ", labels " << HAS_LABEL);
  const int rows = 5, V = 1000, stride = 1003, ignore = -100;
  auto X = uniform(size_t(rows) * stride, -9, -1, 31); // log Q
  auto Y = uniform(size_t(rows) * stride, -9, -1, 32); // log P
  std::vector<int64_t> labels = {7, ignore, 999, 0, 512};
  const int n_non_ignore = HAS_LABEL ? 4 : rows;
  auto loss = poisoned(X.size()), dX = poisoned(X.size());
  tilec::interpret::launch(jsd_kernel<float, -100, 256, HAS_LABEL>, tilec::Grid{rows},
                           checked(X, "X"), stride, checked(Y, "Y"), stride, checked(loss, "loss"),
                           stride, checked(dX, "dX"), stride, checked(labels, "labels"), beta,
                           n_non_ignore, V);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < V; ++c) {
      const size_t i = size_t(r) * stride + c;
      if (HAS_LABEL && labels[r] == ignore) {
        ASSERT_EQ(dX[i], 0.0f) << "ignored row, element " << i;
        ASSERT_TRUE(untouched(loss[i])) << "ignored row's loss, element " << i;
        continue;
      }
      const double x = X[i], y = Y[i], q = std::exp(x), p = std::exp(y);
      double l, g, terms; // terms: the size of what the float sum cancels, for the tolerance
      if (beta == 0) {
        l = p * (y - x);
        g = -p;
        terms = p * (std::fabs(y) + std::fabs(x));
      } else if (beta == 1) {
        l = q * (x - y);
        g = l + q;
        terms = q * (std::fabs(y) + std::fabs(x));
      } else {
        const double m = beta * p + (1 - beta) * q, lm = std::log(m);
        l = beta * p * y + (1 - beta) * q * x - m * lm;
        g = (1 - beta) * q * (x - lm);
        terms = std::fabs(beta * p * y) + std::fabs((1 - beta) * q * x) + std::fabs(m * lm);
      }
      ASSERT_TRUE(close(loss[i], l / n_non_ignore, 1e-6 * terms / n_non_ignore, 1e-4, "loss", i));
      ASSERT_TRUE(close(dX[i], g / n_non_ignore, 1e-9, 1e-4, "dX", i));
    }
  ASSERT_TRUE(gap_untouched(loss, rows, V, stride, "loss"));
  ASSERT_TRUE(gap_untouched(dX, rows, V, stride, "dX"));
}

TEST(CorpusLigerUnsloth, LigerJsdForwardKl) { run_jsd<true>(0.0f); }
TEST(CorpusLigerUnsloth, LigerJsdReverseKl) { run_jsd<true>(1.0f); }
TEST(CorpusLigerUnsloth, LigerJsdGeneralizedWithLabels) { run_jsd<true>(0.3f); }
TEST(CorpusLigerUnsloth, LigerJsdGeneralizedNoLabels) { run_jsd<false>(0.5f); }

// ---------------------------------------------------------------------------------------------
// Liger TVD: per-element loss (none) and per-row loss (batchmean), one row ignored.

TEST(CorpusLigerUnsloth, LigerTvd) {
  const int rows = 4, V = 777, stride = 781, ignore = -100;
  auto p = uniform(size_t(rows) * stride, 0, 0.01f, 41), q = uniform(p.size(), 0, 0.01f, 42);
  for (int r = 0; r < rows; ++r) // some equal elements: the gradient picks -0.5 for them
    for (int c = 0; c < V; c += 97)
      q[size_t(r) * stride + c] = p[size_t(r) * stride + c];
  std::vector<int64_t> labels = {3, ignore, 776, 0};
  const int n_non_ignore = 3;
  const float scale_bm = 1.0f / n_non_ignore;
  auto loss_none = poisoned(p.size()), grads_none = poisoned(p.size());
  auto loss_bm = poisoned(rows), grads_bm = poisoned(p.size());
  tilec::interpret::launch(tv_distance_kernel<float, -100, 256, true, REDUCTION_MODE_NONE>,
                           tilec::Grid{rows}, checked(p, "p"), stride, checked(q, "q"), stride,
                           checked(loss_none, "loss"), stride, checked(grads_none, "grads"), stride,
                           checked(labels, "labels"), V, 1.0f);
  tilec::interpret::launch(tv_distance_kernel<float, -100, 256, true, REDUCTION_MODE_BATCHMEAN>,
                           tilec::Grid{rows}, checked(p, "p"), stride, checked(q, "q"), stride,
                           checked(loss_bm, "loss"), 1, checked(grads_bm, "grads"), stride,
                           checked(labels, "labels"), V, scale_bm);
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int c = 0; c < V; ++c) {
      const size_t i = size_t(r) * stride + c;
      if (labels[r] == ignore) {
        ASSERT_EQ(loss_none[i], 0.0f) << i;
        ASSERT_EQ(grads_none[i], 0.0f) << i;
        ASSERT_EQ(grads_bm[i], 0.0f) << i;
        continue;
      }
      const double l = 0.5 * std::fabs(double(p[i]) - q[i]);
      sum += l;
      ASSERT_TRUE(close(loss_none[i], l, 1e-9, 1e-6, "loss none", i));
      ASSERT_EQ(grads_none[i], p[i] > q[i] ? 0.5f : -0.5f) << i;
      ASSERT_EQ(grads_bm[i], p[i] > q[i] ? 0.5f * scale_bm : -0.5f * scale_bm) << i;
    }
    if (labels[r] == ignore)
      ASSERT_TRUE(untouched(loss_bm[r])) << "the ignored row's loss is left as it was";
    else
      ASSERT_TRUE(close(loss_bm[r], sum * scale_bm, 1e-8, 1e-5, "loss batchmean", r));
  }
  ASSERT_TRUE(gap_untouched(loss_none, rows, V, stride, "loss none"));
  ASSERT_TRUE(gap_untouched(grads_none, rows, V, stride, "grads none"));
  ASSERT_TRUE(gap_untouched(grads_bm, rows, V, stride, "grads batchmean"));
}

// ---------------------------------------------------------------------------------------------
// Liger DyT: forward over (column blocks, rows); backward over (column blocks, P programs per
// column), P smaller than the number of rows so that each program walks several.

template <bool HAVE_BETA> void run_dyt() {
  SCOPED_TRACE(::testing::Message() << "beta " << HAVE_BETA);
  constexpr int N = 2500, BLOCK_N = 1024;
  const int M = 7, P = 3, col_blocks = (N + BLOCK_N - 1) / BLOCK_N, da_cols = (N + 511) / 512;
  auto x = uniform(size_t(M) * N, -3, 3, 51), dy = uniform(x.size(), -1, 1, 52);
  auto gamma = uniform(N, -1, 1, 53), beta = uniform(N, -1, 1, 54);
  std::vector<float> alpha = {0.7f};
  auto y = poisoned(x.size()), dx = poisoned(x.size());
  auto da = poisoned(size_t(P) * da_cols), dg = poisoned(size_t(P) * N);
  auto db = poisoned(size_t(P) * N);
  tilec::interpret::launch(dyt_fwd_kernel<float, HAVE_BETA, N, BLOCK_N>, tilec::Grid{col_blocks, M},
                           checked(x, "X"), checked(y, "Y"), checked(alpha, "Alpha"),
                           checked(gamma, "Gamma"), HAVE_BETA ? beta.data() : nullptr);
  tilec::interpret::launch(dyt_bwd_kernel<float, HAVE_BETA, N, BLOCK_N>, tilec::Grid{col_blocks, P},
                           checked(dy, "DY"), checked(dx, "DX"), checked(da, "DA"),
                           checked(dg, "DG"), HAVE_BETA ? db.data() : nullptr, checked(x, "X"),
                           checked(alpha, "Alpha"), checked(gamma, "Gamma"), M);
  const double a = alpha[0];
  std::vector<double> dg_ref(N, 0.0), db_ref(N, 0.0);
  double da_ref = 0;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      const size_t i = size_t(r) * N + c;
      const double t = std::tanh(a * x[i]);
      ASSERT_TRUE(close(y[i], t * gamma[c] + (HAVE_BETA ? beta[c] : 0.0), 1e-6, 1e-5, "y", i));
      const double tmp = (1 - t * t) * dy[i] * gamma[c];
      ASSERT_TRUE(close(dx[i], a * tmp, 1e-6, 1e-5, "dx", i));
      dg_ref[c] += dy[i] * t;
      db_ref[c] += dy[i];
      da_ref += x[i] * tmp;
    }
  for (int c = 0; c < N; ++c) {
    double g = 0, b = 0;
    for (int p = 0; p < P; ++p) {
      g += dg[size_t(p) * N + c];
      if (HAVE_BETA) {
        b += db[size_t(p) * N + c];
      }
    }
    ASSERT_TRUE(close(g, dg_ref[c], 1e-5, 1e-5, "dgamma", c));
    if (HAVE_BETA) {
      ASSERT_TRUE(close(b, db_ref[c], 1e-5, 1e-5, "dbeta", c));
    }
  }
  if (!HAVE_BETA) {
    for (size_t i = 0; i < db.size(); ++i)
      ASSERT_TRUE(untouched(db[i])) << "DB without beta, element " << i;
  }
  // program (i, p) writes slot i of DA's row p; the slots past the column blocks stay
  double da_sum = 0;
  for (int p = 0; p < P; ++p)
    for (int s = 0; s < da_cols; ++s) {
      const float v = da[size_t(p) * da_cols + s];
      if (s < col_blocks)
        da_sum += v;
      else
        ASSERT_TRUE(untouched(v)) << "DA row " << p << " slot " << s;
    }
  ASSERT_TRUE(close(da_sum, da_ref, 1e-4, 1e-5, "dalpha", 0));
}

TEST(CorpusLigerUnsloth, LigerDytWithBeta) { run_dyt<true>(); }
TEST(CorpusLigerUnsloth, LigerDytWithoutBeta) { run_dyt<false>(); }

// ---------------------------------------------------------------------------------------------
// Liger fused add + RMSNorm: the three casting modes (the same values in float), backward with
// and without dS_out.

template <int mode, bool has_dS_out> void run_fused_add_rms_norm() {
  SCOPED_TRACE(::testing::Message() << "casting mode " << mode << ", dS_out " << has_dS_out);
  const int rows = 37, n = 1000, stride = n + 3;
  constexpr int rpp = 8;
  const int programs = (rows + rpp - 1) / rpp;
  const float eps = 1e-6f, offset = mode == CASTING_MODE_GEMMA ? 1.0f : 0.25f;
  auto x = uniform(size_t(rows) * stride, -2, 2, 61), r = uniform(x.size(), -1, 1, 62);
  auto w = uniform(n, -1, 1, 63), dy = uniform(x.size(), -1, 1, 64);
  auto ds_out = uniform(x.size(), -1, 1, 65);
  auto y = poisoned(x.size()), s = poisoned(x.size()), rstd = poisoned(rows);
  auto dx = poisoned(x.size()), dw = poisoned(size_t(programs) * n);
  tilec::interpret::launch(fused_add_rms_norm_forward_kernel<float, mode, 1024>, tilec::Grid{rows},
                           checked(y, "Y"), stride, checked(s, "S"), stride, checked(x, "X"),
                           stride, checked(r, "R"), stride, checked(w, "W"), 1,
                           checked(rstd, "RSTD"), 1, n, eps, offset);
  tilec::interpret::launch(fused_add_rms_norm_backward_kernel<float, rpp, mode, 1024, has_dS_out>,
                           tilec::Grid{programs}, checked(dy, "dY"), stride,
                           checked(ds_out, "dS_out"), stride, checked(dx, "dX"), stride,
                           checked(s, "S"), stride, checked(w, "W"), 1, checked(rstd, "RSTD"), 1,
                           checked(dw, "dW"), n, rows, n, offset);
  std::vector<double> dw_ref(n, 0.0);
  for (int row = 0; row < rows; ++row) {
    std::vector<double> sr(n);
    double ms = 0;
    for (int c = 0; c < n; ++c) {
      const size_t i = size_t(row) * stride + c;
      sr[c] = double(x[i]) + r[i];
      ASSERT_TRUE(close(s[i], sr[c], 1e-6, 1e-6, "S", i));
      ms += sr[c] * sr[c];
    }
    const double rs = 1 / std::sqrt(ms / n + eps);
    ASSERT_TRUE(close(rstd[row], rs, 0, 1e-5, "rstd", row));
    double dot = 0;
    for (int c = 0; c < n; ++c)
      dot += dy[size_t(row) * stride + c] * (w[c] + offset) * sr[c];
    for (int c = 0; c < n; ++c) {
      const size_t i = size_t(row) * stride + c;
      ASSERT_TRUE(close(y[i], sr[c] * rs * (w[c] + offset), 1e-5, 1e-5, "Y", i));
      const double m = dy[i] * (w[c] + offset);
      const double want = rs * m - rs * rs * rs * dot / n * sr[c] + (has_dS_out ? ds_out[i] : 0);
      ASSERT_TRUE(close(dx[i], want, 1e-5, 1e-4, "dX", i));
      dw_ref[c] += dy[i] * sr[c] * rs;
    }
  }
  for (int c = 0; c < n; ++c) {
    double got = 0;
    for (int p = 0; p < programs; ++p)
      got += dw[size_t(p) * n + c];
    ASSERT_TRUE(close(got, dw_ref[c], 1e-4, 1e-4, "dW", c));
  }
  ASSERT_TRUE(gap_untouched(y, rows, n, stride, "Y"));
  ASSERT_TRUE(gap_untouched(s, rows, n, stride, "S"));
  ASSERT_TRUE(gap_untouched(dx, rows, n, stride, "dX"));
}

TEST(CorpusLigerUnsloth, LigerFusedAddRmsNormLlama) {
  run_fused_add_rms_norm<CASTING_MODE_LLAMA, true>();
}
TEST(CorpusLigerUnsloth, LigerFusedAddRmsNormGemma) {
  run_fused_add_rms_norm<CASTING_MODE_GEMMA, false>();
}
TEST(CorpusLigerUnsloth, LigerFusedAddRmsNormNone) { run_fused_add_rms_norm<CASTING_MODE_NONE, true>(); }

// ---------------------------------------------------------------------------------------------
// Unsloth RMS LayerNorm: Llama and Gemma forward, backward in place (Llama) and not (Gemma).

template <bool GEMMA> void run_unsloth_rms() {
  SCOPED_TRACE(::testing::Message() << "gemma " << GEMMA);
  constexpr int rows = 9, n = 1000, stride = 1003;
  const float eps = 1e-5f;
  auto x = uniform(size_t(rows) * stride, -2, 2, 71), w = uniform(n, -1, 1, 72);
  auto dy0 = uniform(x.size(), -1, 1, 73);
  auto y = poisoned(x.size()), r = poisoned(rows);
  if constexpr (GEMMA)
    tilec::interpret::launch(gemma_rms_layernorm_forward<float, stride, stride, 1, 1, n, 1024>,
                             tilec::Grid{rows}, checked(y, "Y"), checked(x, "X"), checked(w, "W"),
                             checked(r, "r"), eps);
  else
    tilec::interpret::launch(rms_layernorm_forward<float, stride, stride, 1, 1, n, 1024>,
                             tilec::Grid{rows}, checked(y, "Y"), checked(x, "X"), checked(w, "W"),
                             checked(r, "r"), eps);
  // the backward: Gemma into a poisoned dX, Llama over dY (the dX argument is not written)
  auto dy = dy0;
  for (int row = 0; row < rows; ++row) // dY's gap poisoned too: the in-place write must skip it
    for (int c = n; c < stride; ++c)
      std::memset(&dy[size_t(row) * stride + c], 0xff, sizeof(float));
  auto dx = poisoned(x.size());
  tilec::interpret::launch(
      rms_layernorm_backward<float, stride, stride, stride, 1, 1, n, GEMMA, 1024>,
      tilec::Grid{rows}, checked(dy, "dY"), checked(dx, "dX"), checked(x, "X"), checked(w, "W"),
      checked(r, "r"), eps);
  const auto &grad = GEMMA ? dx : dy;
  for (int row = 0; row < rows; ++row) {
    double ms = 0;
    for (int c = 0; c < n; ++c)
      ms += double(x[size_t(row) * stride + c]) * x[size_t(row) * stride + c];
    const double rs = 1 / std::sqrt(ms / n + eps);
    ASSERT_TRUE(close(r[row], rs, 0, 1e-5, "r", row));
    double rowsum = 0;
    for (int c = 0; c < n; ++c) {
      const size_t i = size_t(row) * stride + c;
      rowsum += dy0[i] * (GEMMA ? w[c] + 1.0 : w[c]) * x[i] * rs;
    }
    for (int c = 0; c < n; ++c) {
      const size_t i = size_t(row) * stride + c;
      const double normed = x[i] * rs, wc = GEMMA ? w[c] + 1.0 : w[c];
      ASSERT_TRUE(close(y[i], normed * wc, 1e-5, 1e-5, "Y", i));
      const double want = rs / n * (n * dy0[i] * wc - normed * rowsum);
      ASSERT_TRUE(close(grad[i], want, 1e-5, 1e-4, "dX", i));
    }
  }
  ASSERT_TRUE(gap_untouched(y, rows, n, stride, "Y"));
  ASSERT_TRUE(gap_untouched(grad, rows, n, stride, "dX"));
  if (!GEMMA) {
    for (size_t i = 0; i < dx.size(); ++i)
      ASSERT_TRUE(untouched(dx[i])) << "dX argument of the in-place backward, element " << i;
  }
}

TEST(CorpusLigerUnsloth, UnslothRmsLayernormLlama) { run_unsloth_rms<false>(); }
TEST(CorpusLigerUnsloth, UnslothRmsLayernormGemma) { run_unsloth_rms<true>(); }

// ---------------------------------------------------------------------------------------------
// Unsloth GEGLU: exact and approximate, forward and backward, both indexing widths.

template <bool EXACT, bool LONG_INDEXING> void run_unsloth_geglu() {
  SCOPED_TRACE(::testing::Message() << "exact " << EXACT << ", long " << LONG_INDEXING);
  const int n = 3 * 1024 + 77, guard = 67, programs = (n + 1023) / 1024;
  auto e0 = uniform(n + guard, -4, 4, 81), g0 = uniform(n + guard, -2, 2, 82);
  auto dw0 = uniform(n + guard, -1, 1, 83);
  for (int i = n; i < n + guard; ++i) // poison past n in the in-place buffers
    std::memset(&e0[i], 0xff, 4), std::memset(&g0[i], 0xff, 4), std::memset(&dw0[i], 0xff, 4);
  auto h = poisoned(n + guard);
  if constexpr (EXACT)
    tilec::interpret::launch(exact_forward_kernel<float, 1024, LONG_INDEXING>,
                             tilec::Grid{programs}, checked(e0, "e"), checked(g0, "g"),
                             checked(h, "h"), int64_t(n));
  else
    tilec::interpret::launch(approx_forward_kernel<float, 1024, LONG_INDEXING>,
                             tilec::Grid{programs}, checked(e0, "e"), checked(g0, "g"),
                             checked(h, "h"), int64_t(n));
  auto DW = dw0, e = e0, g = g0;
  if constexpr (EXACT)
    tilec::interpret::launch(exact_backward_kernel<float, 1024, LONG_INDEXING>,
                             tilec::Grid{programs}, checked(DW, "DW"), checked(e, "e"),
                             checked(g, "g"), int64_t(n));
  else
    tilec::interpret::launch(approx_backward_kernel<float, 1024, LONG_INDEXING>,
                             tilec::Grid{programs}, checked(DW, "DW"), checked(e, "e"),
                             checked(g, "g"), int64_t(n));
  for (int i = 0; i < n; ++i) {
    const double f = EXACT ? gelu_exact(e0[i]) : gelu_tanh(e0[i]);
    const double df = EXACT ? gelu_exact_grad(e0[i]) : gelu_tanh_grad(e0[i]);
    ASSERT_TRUE(close(h[i], f * g0[i], 1e-6, 1e-5, "h", i));
    ASSERT_TRUE(close(DW[i], f * g0[i], 1e-6, 1e-5, "backward h", i));
    ASSERT_TRUE(close(e[i], dw0[i] * f, 1e-6, 1e-5, "df", i));
    ASSERT_TRUE(close(g[i], dw0[i] * g0[i] * df, 1e-6, 1e-5, "de", i));
  }
  for (int i = n; i < n + guard; ++i)
    ASSERT_TRUE(untouched(h[i]) && untouched(DW[i]) && untouched(e[i]) && untouched(g[i]))
        << "past n: " << i;
}

TEST(CorpusLigerUnsloth, UnslothGegluExact) { run_unsloth_geglu<true, false>(); }
TEST(CorpusLigerUnsloth, UnslothGegluExactLongIndexing) { run_unsloth_geglu<true, true>(); }
TEST(CorpusLigerUnsloth, UnslothGegluApprox) { run_unsloth_geglu<false, false>(); }
TEST(CorpusLigerUnsloth, UnslothGegluApproxLongIndexing) { run_unsloth_geglu<false, true>(); }

// ---------------------------------------------------------------------------------------------
// Unsloth cross-entropy: whole-row forward, chunked forward (finished as the host does) and
// backward, plain and with softcapping and scaling.

template <bool SOFTCAP_ON, bool SCALE_ON> void run_unsloth_cross_entropy() {
  SCOPED_TRACE(::testing::Message() << "softcap " << SOFTCAP_ON << ", scale " << SCALE_ON);
  constexpr int rows = 6, V = 5000, stride = 5003, CHUNK = 2048, N_CHUNKS = 3, BWD = 4096;
  const float softcap = SOFTCAP_ON ? 7.5f : 0.0f, scale = SCALE_ON ? 0.625f : 0.0f;
  auto logits = uniform(size_t(rows) * stride, -8, 8, 91);
  std::vector<int64_t> labels = {0, 4999, -100, 1234, 2048, 4095};
  auto dlosses = uniform(rows, 0.5f, 1.5f, 92);

  // the reference: transformed logits, logsumexp per row and per chunk
  auto transformed = [&](double x) {
    if (SCALE_ON)
      x = scale * x;
    if (SOFTCAP_ON)
      x = softcap * std::tanh(x / softcap);
    return x;
  };
  // With softcapping, the original's padding lanes (other = -inf) become -SOFTCAP and count in
  // the sum, exp(-SOFTCAP - max) each: the reference adds them as the kernel does.
  auto lse_of = [&](int row, int lo, int hi, int block) {
    double m = -INFINITY, s = 0;
    for (int c = lo; c < hi; ++c)
      m = std::max(m, transformed(logits[size_t(row) * stride + c]));
    for (int c = lo; c < hi; ++c)
      s += std::exp(transformed(logits[size_t(row) * stride + c]) - m);
    if (SOFTCAP_ON)
      s += (block - (hi - lo)) * std::exp(-double(softcap) - m);
    return m + std::log(s);
  };

  auto loss = poisoned(rows), lse = poisoned(rows);
  tilec::interpret::launch(cross_entropy_forward<float, V, 8192, SOFTCAP_ON, SCALE_ON>,
                           tilec::Grid{rows}, checked(logits, "logits"), stride,
                           checked(loss, "loss"), checked(lse, "logsumexp"),
                           checked(labels, "labels"), softcap, scale);
  auto closs = poisoned(rows), clse = poisoned(size_t(rows) * N_CHUNKS);
  tilec::interpret::launch(
      chunked_cross_entropy_forward<float, stride, V, N_CHUNKS, CHUNK, SOFTCAP_ON, SCALE_ON>,
      tilec::Grid{rows, N_CHUNKS}, checked(logits, "logits"), checked(closs, "loss"),
      checked(clse, "logsumexp"), checked(labels, "labels"), softcap, scale);
  for (int row = 0; row < rows; ++row) {
    const double want_lse = lse_of(row, 0, V, 8192);
    ASSERT_TRUE(close(lse[row], want_lse, 1e-5, 1e-6, "logsumexp", row));
    const double x =
        labels[row] == -100 ? 0 : transformed(logits[size_t(row) * stride + labels[row]]);
    ASSERT_TRUE(
        close(loss[row], labels[row] == -100 ? 0.0 : want_lse - x, 1e-5, 1e-5, "loss", row));
    // chunked: each chunk's logsumexp, and -x from chunk 0; the host's logsumexp of them
    double m = -INFINITY, s = 0, m_ref = -INFINITY, s_ref = 0;
    double want_chunk[N_CHUNKS];
    for (int k = 0; k < N_CHUNKS; ++k) {
      const int lo = k * CHUNK, hi = std::min(V, lo + CHUNK);
      want_chunk[k] = lse_of(row, lo, hi, CHUNK);
      ASSERT_TRUE(close(clse[size_t(row) * N_CHUNKS + k], want_chunk[k], 1e-5, 1e-6,
                        "chunk logsumexp", size_t(row) * N_CHUNKS + k));
      m = std::max(m, double(clse[size_t(row) * N_CHUNKS + k]));
      m_ref = std::max(m_ref, want_chunk[k]);
    }
    for (int k = 0; k < N_CHUNKS; ++k) {
      s += std::exp(clse[size_t(row) * N_CHUNKS + k] - m);
      s_ref += std::exp(want_chunk[k] - m_ref);
    }
    ASSERT_TRUE(close(closs[row], -x, 1e-6, 1e-6, "chunked -x", row));
    const double host_loss = labels[row] == -100 ? 0.0 : closs[row] + m + std::log(s);
    const double want_loss = labels[row] == -100 ? 0.0 : m_ref + std::log(s_ref) - x;
    ASSERT_TRUE(close(host_loss, want_loss, 1e-5, 1e-5, "chunked loss", row));
  }

  // the backward over the logits, in place, with the forward's logsumexp
  auto grad = logits;
  for (int row = 0; row < rows; ++row)
    for (int c = V; c < stride; ++c)
      std::memset(&grad[size_t(row) * stride + c], 0xff, 4);
  tilec::interpret::launch(cross_entropy_backward<float, stride, 1, V, BWD, SOFTCAP_ON, SCALE_ON>,
                           tilec::Grid{rows, (V + BWD - 1) / BWD}, checked(grad, "logits"),
                           checked(dlosses, "dloss"), checked(lse, "logsumexp"),
                           checked(labels, "labels"), softcap, scale);
  for (int row = 0; row < rows; ++row)
    for (int c = 0; c < V; ++c) {
      const size_t i = size_t(row) * stride + c;
      if (labels[row] == -100) {
        ASSERT_EQ(grad[i], 0.0f) << i;
        continue;
      }
      double xs = logits[i], d = 1;
      if (SCALE_ON) {
        xs *= scale;
        d *= scale;
      }
      double t = xs;
      if (SOFTCAP_ON) {
        t = std::tanh(xs / softcap);
        xs = softcap * t;
        d *= 1 - t * t;
      }
      double y = std::exp(xs - double(lse[row])) - (c == labels[row] ? 1 : 0);
      ASSERT_TRUE(close(grad[i], dlosses[row] * y * d, 1e-8, 1e-4, "dlogits", i));
    }
  ASSERT_TRUE(gap_untouched(grad, rows, V, stride, "dlogits"));
}

TEST(CorpusLigerUnsloth, UnslothCrossEntropy) { run_unsloth_cross_entropy<false, false>(); }
TEST(CorpusLigerUnsloth, UnslothCrossEntropySoftcapScale) { run_unsloth_cross_entropy<true, true>(); }
TEST(CorpusLigerUnsloth, UnslothCrossEntropySoftcap) { run_unsloth_cross_entropy<true, false>(); }
