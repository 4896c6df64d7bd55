// SwiGLU, GEGLU and RoPE (kernels/liger_*.cpp) in the interpreter against double-precision
// references, at sizes that are not multiples of the block, with padded rows whose gap must
// stay poisoned. The backward kernels write their gradients over their inputs.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/liger_geglu.cpp"
#include "kernels/liger_rope.cpp"
#include "kernels/liger_swiglu.cpp"

using namespace corpus;

namespace {

constexpr int kRows = 7, kCols = 1000, kStride = 1003;

/// The row's gap [kCols, kStride) still poisoned in every row.
bool gaps_untouched(const std::vector<float> &v) {
  for (int r = 0; r < kRows; ++r)
    for (int c = kCols; c < kStride; ++c)
      if (!untouched(v[size_t(r) * kStride + c]))
        return false;
  return true;
}

/// A copy of `src` with the gaps of its rows poisoned.
std::vector<float> with_poisoned_gaps(std::vector<float> src) {
  for (int r = 0; r < kRows; ++r)
    for (int c = kCols; c < kStride; ++c)
      src[size_t(r) * kStride + c] = poisoned(1)[0];
  return src;
}

double gelu_tanh(double a) {
  return 0.5 * a * (1 + std::tanh(0.7978845608028654 * (a + 0.044715 * a * a * a)));
}

} // namespace

TEST(CorpusActivations, SwigluForwardBackward) {
  const float g = 1.25f;
  auto a = with_poisoned_gaps(uniform(size_t(kRows) * kStride, -4, 4, 11));
  auto b = with_poisoned_gaps(uniform(a.size(), -2, 2, 12));
  auto dc = with_poisoned_gaps(uniform(a.size(), -1, 1, 13));
  auto c = poisoned(a.size()), da = a, db = b;
  tilec::interpret::launch(swiglu_forward_kernel<float, kCols, 1024>, tilec::Grid{kRows},
                           a.data(), b.data(), c.data(), kStride, g);
  tilec::interpret::launch(swiglu_backward_kernel<float, kCols, 1024>, tilec::Grid{kRows},
                           dc.data(), da.data(), db.data(), kStride, g);
  for (int r = 0; r < kRows; ++r)
    for (int col = 0; col < kCols; ++col) {
      const size_t i = size_t(r) * kStride + col;
      const double x = double(a[i]) * g, s = 1 / (1 + std::exp(-x)), silu = x * s;
      ASSERT_TRUE(close(c[i], silu * b[i], 1e-6, 1e-5, "c", i));
      ASSERT_TRUE(close(db[i], dc[i] * silu, 1e-6, 1e-5, "db", i));
      ASSERT_TRUE(close(da[i], dc[i] * (silu * (1 - s) + s) * b[i] * g, 1e-6, 1e-5, "da", i));
    }
  EXPECT_TRUE(gaps_untouched(c) && gaps_untouched(da) && gaps_untouched(db));
}

TEST(CorpusActivations, GegluForwardBackward) {
  auto a = with_poisoned_gaps(uniform(size_t(kRows) * kStride, -4, 4, 14));
  auto b = with_poisoned_gaps(uniform(a.size(), -2, 2, 15));
  auto dc = with_poisoned_gaps(uniform(a.size(), -1, 1, 16));
  auto c = poisoned(a.size()), da = a, db = b;
  tilec::interpret::launch(geglu_tanh_forward_kernel<float, kCols, 1024>, tilec::Grid{kRows},
                           a.data(), b.data(), c.data(), kStride);
  tilec::interpret::launch(geglu_tanh_backward_kernel<float, kCols, 1024>, tilec::Grid{kRows},
                           dc.data(), da.data(), db.data(), kStride);
  for (int r = 0; r < kRows; ++r)
    for (int col = 0; col < kCols; ++col) {
      const size_t i = size_t(r) * kStride + col;
      const double x = a[i], t = std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x));
      const double dgelu = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.7978845608028654 *
                                               (1 + 3 * 0.044715 * x * x);
      ASSERT_TRUE(close(c[i], gelu_tanh(x) * b[i], 1e-5, 1e-5, "c", i));
      ASSERT_TRUE(close(db[i], dc[i] * gelu_tanh(x), 1e-5, 1e-5, "db", i));
      ASSERT_TRUE(close(da[i], dc[i] * b[i] * dgelu, 1e-5, 1e-5, "da", i));
    }
  EXPECT_TRUE(gaps_untouched(c) && gaps_untouched(da) && gaps_untouched(db));
}

TEST(CorpusActivations, RopeForwardBackward) {
  // q [bsz, sl, n_qh, hd], k [bsz, sl, n_kh, hd], cos and sin [1, sl, hd]; heads and the half
  // head padded to powers of two. Forward rotates; backward rotates back.
  constexpr int bsz = 2, sl = 3, n_qh = 5, n_kh = 3, hd = 12;
  auto q0 = uniform(size_t(bsz) * sl * n_qh * hd, -1, 1, 17);
  auto k0 = uniform(size_t(bsz) * sl * n_kh * hd, -1, 1, 18);
  std::vector<float> cos(sl * hd), sin(sl * hd);
  for (int s = 0; s < sl; ++s)
    for (int j = 0; j < hd; ++j) {
      const double theta = (s + 1) * std::pow(10000.0, -2.0 * (j % (hd / 2)) / hd);
      cos[s * hd + j] = float(std::cos(theta));
      sin[s * hd + j] = float(std::sin(theta));
    }
  auto q = q0, k = k0;
  auto rope = [&](auto kernel) {
    tilec::interpret::launch(kernel, tilec::Grid{bsz * sl}, q.data(), n_qh * hd, k.data(),
                             n_kh * hd, cos.data(), hd, sin.data(), hd, sl);
  };
  rope(triton_rope<float, bsz, 1, n_qh, n_kh, hd, 8, 4, 16, 8, false>);
  auto check = [&](const std::vector<float> &got, const std::vector<float> &x, int heads) {
    for (int t = 0; t < bsz * sl; ++t)
      for (int h = 0; h < heads; ++h)
        for (int j = 0; j < hd / 2; ++j) {
          const size_t i = (size_t(t) * heads + h) * hd + j;
          const double c = cos[(t % sl) * hd + j], s = sin[(t % sl) * hd + j];
          const double x1 = x[i], x2 = x[i + hd / 2];
          ASSERT_TRUE(close(got[i], x1 * c - x2 * s, 1e-6, 1e-5, "left", i));
          ASSERT_TRUE(close(got[i + hd / 2], x2 * c + x1 * s, 1e-6, 1e-5, "right", i));
        }
  };
  check(q, q0, n_qh);
  check(k, k0, n_kh);
  rope(triton_rope<float, bsz, 1, n_qh, n_kh, hd, 8, 4, 16, 8, true>);
  for (size_t i = 0; i < q.size(); ++i)
    ASSERT_TRUE(close(q[i], q0[i], 1e-5, 1e-5, "q round trip", i));
  for (size_t i = 0; i < k.size(); ++i)
    ASSERT_TRUE(close(k[i], k0[i], 1e-5, 1e-5, "k round trip", i));
}
