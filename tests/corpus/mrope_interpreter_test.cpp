// Liger-Kernel's Qwen2-VL M-RoPE (kernels/liger_qwen2vl_mrope.cpp) in the interpreter against a
// double rotation: 2 x 5 tokens, 6 query heads and 2 key heads (padded to 8 and 2), a head of
// 40 (padded to 64) whose 20 rotated pairs take their angles from three streams (6 temporal, 7
// height, 7 width), forward and backward; the backward undoes the forward.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/liger_qwen2vl_mrope.cpp"

using namespace corpus;

namespace {

constexpr int bs = 2, sl = 5, n_qh = 6, n_kh = 2, hd = 40, sec_t = 6, sec_h = 7;

/// x rotated in place as the kernel does: heads of hd, one token's row after another.
void rotate(std::vector<double> &x, int heads, const std::vector<float> &cos,
            const std::vector<float> &sin, bool backward) {
  for (int tok = 0; tok < bs * sl; ++tok)
    for (int h = 0; h < heads; ++h)
      for (int i = 0; i < hd / 2; ++i) {
        const int stream = i < sec_t ? 0 : i < sec_t + sec_h ? 1 : 2;
        const size_t at = (size_t(stream) * bs * sl + tok) * hd + i;
        const double c = cos[at], s = backward ? -double(sin[at]) : double(sin[at]);
        double &x1 = x[(size_t(tok) * heads + h) * hd + i];
        double &x2 = x[(size_t(tok) * heads + h) * hd + i + hd / 2];
        const double y1 = x1 * c - x2 * s, y2 = x2 * c + x1 * s;
        x1 = y1, x2 = y2;
      }
}

template <bool BACKWARD> void check() {
  SCOPED_TRACE(BACKWARD ? "backward" : "forward");
  auto q = uniform(size_t(bs) * sl * n_qh * hd, -1, 1, 111);
  auto k = uniform(size_t(bs) * sl * n_kh * hd, -1, 1, 112);
  const auto cos = uniform(size_t(3) * bs * sl * hd, -1, 1, 113);
  const auto sin = uniform(cos.size(), -1, 1, 114);
  std::vector<double> wq(q.begin(), q.end()), wk(k.begin(), k.end());
  rotate(wq, n_qh, cos, sin, BACKWARD);
  rotate(wk, n_kh, cos, sin, BACKWARD);
  q.push_back(-5.0f); // a sentinel past the end, left alone
  tilec::interpret::launch(_triton_qwen2vl_mrope<float, float, bs, n_qh, n_kh, hd, 8, 2, 64, sec_t,
                                                 sec_h, 8, BACKWARD>,
                           tilec::Grid{bs * sl}, q.data(), k.data(), cos.data(), sin.data(), sl);
  for (size_t i = 0; i < wq.size(); ++i)
    ASSERT_TRUE(close(q[i], wq[i], 1e-6, 1e-5, "q", i));
  for (size_t i = 0; i < wk.size(); ++i)
    ASSERT_TRUE(close(k[i], wk[i], 1e-6, 1e-5, "k", i));
  EXPECT_EQ(q.back(), -5.0f);
}

} // namespace

TEST(CorpusLiger, Qwen2VlMrope) {
  check<false>();
  check<true>();
}
