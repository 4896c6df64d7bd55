// vLLM's merge of two partial attention results (kernels/vllm_merge_attn_states.cpp) in the
// interpreter against the softmax-weighted sum in double: 7 tokens, 3 heads, a head size of
// 80 (padded to 128), lse values of +inf (FlashAttention 2's empty sequence, taken as -inf)
// and -inf on either side; outputs poisoned before each run.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/vllm_merge_attn_states.cpp"

using namespace corpus;

TEST(CorpusVllm, MergeAttentionStates) {
  constexpr int tokens = 7, heads = 3, D = 80;
  const auto p_out = uniform(size_t(tokens) * heads * D, -1, 1, 101);
  const auto s_out = uniform(p_out.size(), -1, 1, 102);
  auto p_lse = uniform(size_t(heads) * tokens, -3, 3, 103);
  auto s_lse = uniform(p_lse.size(), -3, 3, 104);
  p_lse[1] = INFINITY;  // head 0, token 1: the prefix is empty (FA2's +inf)
  s_lse[2] = -INFINITY; // head 0, token 2: the suffix is empty
  p_lse[tokens + 3] = INFINITY;
  auto out = poisoned(p_out.size() + 4), out_lse = poisoned(p_lse.size() + 4);
  tilec::interpret::launch(merge_attn_states_kernel<float, D, 128, true>,
                           tilec::Grid{tokens, heads}, out.data(), out_lse.data(), p_out.data(),
                           p_lse.data(), s_out.data(), s_lse.data());
  for (int t = 0; t < tokens; ++t)
    for (int h = 0; h < heads; ++h) {
      double p = p_lse[size_t(h) * tokens + t], s = s_lse[size_t(h) * tokens + t];
      p = p == INFINITY ? -INFINITY : p;
      s = s == INFINITY ? -INFINITY : s;
      const double m = std::max(p, s), se = std::exp(p - m) + std::exp(s - m);
      ASSERT_TRUE(close(out_lse[size_t(h) * tokens + t], std::log(se) + m, 1e-5, 1e-5, "lse",
                        size_t(h) * tokens + t));
      for (int d = 0; d < D; ++d) {
        const size_t i = (size_t(t) * heads + h) * D + d;
        const double want = p_out[i] * std::exp(p - m) / se + s_out[i] * std::exp(s - m) / se;
        ASSERT_TRUE(close(out[i], want, 1e-6, 1e-5, "out", i));
      }
    }
  EXPECT_TRUE(untouched(out.back()) && untouched(out_lse.back()));
}
