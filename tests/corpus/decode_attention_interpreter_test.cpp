// vLLM's decode attention over a paged KV cache (kernels/vllm_decode_attention.cpp) in the
// interpreter against a double-precision softmax(q k^T * scale) v per sequence and head:
// sequences of 1, 77 and 200 tokens (not multiples of the key blocks, one shorter than the
// number of splits, so that some splits are empty), pages in shuffled order, MHA, GQA and
// MLA (a 576-wide key whose last 64 dimensions take the second dot, values the first 512),
// with and without a logit cap; outputs poisoned before each run.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/vllm_decode_attention.cpp"

#include <algorithm>
#include <numeric>

using namespace corpus;

namespace {

/// A paged cache for `lens` sequences: each sequence's token t lives at slot
/// page[b][t / PAGE] * PAGE + t % PAGE, pages handed out in a shuffled order.
struct PagedCache {
  int page_size, pages_per_seq, slots;
  std::vector<int32_t> req_to_tokens, seq_lens;
  PagedCache(const std::vector<int> &lens, int page_size_, int max_len) : page_size(page_size_) {
    pages_per_seq = (max_len + page_size - 1) / page_size;
    const int pages = int(lens.size()) * pages_per_seq;
    slots = pages * page_size;
    std::vector<int32_t> order(pages);
    std::iota(order.begin(), order.end(), 0);
    std::reverse(order.begin(), order.end());
    for (size_t i = 0; i + 2 < order.size(); i += 3)
      std::swap(order[i], order[i + 2]);
    req_to_tokens = order;
    seq_lens.assign(lens.begin(), lens.end());
  }
  int slot(int b, int t) const {
    return req_to_tokens[size_t(b) * pages_per_seq + t / page_size] * page_size + t % page_size;
  }
};

/// Output [batch, H, Lv] of decode attention in double: keys and values read through `cache`
/// (K [slots, H_KV, Lk], V [slots, H_KV, Lv]), query head h reading KV head h / (H / H_KV).
std::vector<double> reference(const PagedCache &cache, const std::vector<float> &q,
                              const std::vector<float> &k, const std::vector<float> &v, int H,
                              int H_KV, int Lk, int Lv, float sm_scale, float logit_cap) {
  const int batch = int(cache.seq_lens.size());
  std::vector<double> out(size_t(batch) * H * Lv, 0.0);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < H; ++h) {
      const int kvh = h / (H / H_KV), n = cache.seq_lens[b];
      std::vector<double> s(n);
      double m = -INFINITY;
      for (int t = 0; t < n; ++t) {
        double dot = 0;
        for (int d = 0; d < Lk; ++d)
          dot += double(q[(size_t(b) * H + h) * Lk + d]) *
                 k[(size_t(cache.slot(b, t)) * H_KV + kvh) * Lk + d];
        s[t] = dot * sm_scale;
        if (logit_cap > 0)
          s[t] = logit_cap * std::tanh(s[t] / logit_cap);
        m = std::max(m, s[t]);
      }
      double sum = 0;
      for (int t = 0; t < n; ++t)
        sum += s[t] = std::exp(s[t] - m);
      for (int t = 0; t < n; ++t)
        for (int d = 0; d < Lv; ++d)
          out[(size_t(b) * H + h) * Lv + d] +=
              s[t] / sum * v[(size_t(cache.slot(b, t)) * H_KV + kvh) * Lv + d];
    }
  return out;
}

constexpr int kSplits = 4;

/// Stage 2 into `o` [batch, H, Lv] (float), from stage 1's Att_Out [batch, H, kSplits, Lv + 1].
template <int Lv>
void merge(const PagedCache &cache, const std::vector<float> &mid, std::vector<float> &o, int H) {
  constexpr int BLOCK_DV = Lv <= 128 ? 128 : 512;
  const int batch = int(cache.seq_lens.size());
  tilec::interpret::launch(_fwd_kernel_stage2<float, kSplits, BLOCK_DV, Lv>,
                           tilec::Grid{uint32_t(batch), uint32_t(H)}, mid.data(), o.data(), cache.seq_lens.data(),
                           H * kSplits * (Lv + 1), kSplits * (Lv + 1), Lv + 1, H * Lv, Lv);
}

void expect_output(const std::vector<float> &o, const std::vector<double> &want, double tol,
                   const char *what) {
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_TRUE(close(o[i], want[i], tol, 10 * tol, what, i));
  for (size_t i = want.size(); i < o.size(); ++i)
    ASSERT_TRUE(untouched(o[i])) << what << ": written past the output at " << i;
}

} // namespace

TEST(CorpusDecodeAttention, MhaPagedWithAndWithoutLogitCap) {
  constexpr int H = 3, Lk = 96, Lv = 80, PAGE = 16; // head dims below their blocks (128)
  const PagedCache cache({1, 77, 200}, PAGE, 200);
  const int batch = 3;
  const auto q = uniform(size_t(batch) * H * Lk, -1, 1, 51);
  const auto k = uniform(size_t(cache.slots) * H * Lk, -1, 1, 52);
  const auto v = uniform(size_t(cache.slots) * H * Lv, -1, 1, 53);
  const float sm_scale = 1.0f / std::sqrt(float(Lk));
  for (float cap : {0.0f, 1.5f}) {
    auto mid = poisoned(size_t(batch) * H * kSplits * (Lv + 1));
    tilec::interpret::launch(_fwd_kernel_stage1<float, 1, 128, 128, 64, kSplits, PAGE, Lk, Lv>,
                             tilec::Grid{batch, H, kSplits}, q.data(), k.data(), v.data(),
                             sm_scale, cache.req_to_tokens.data(), cache.seq_lens.data(),
                             mid.data(), cache.pages_per_seq, H * Lk, Lk, H * Lk, Lk, H * Lv, Lv,
                             H * kSplits * (Lv + 1), kSplits * (Lv + 1), Lv + 1, cap);
    auto o = poisoned(size_t(batch) * H * Lv + 4);
    merge<Lv>(cache, mid, o, H);
    expect_output(o, reference(cache, q, k, v, H, H, Lk, Lv, sm_scale, cap), 1e-5,
                  cap > 0 ? "o (logit cap)" : "o");
  }
}

TEST(CorpusDecodeAttention, GroupedQueryHeads) {
  constexpr int H = 8, H_KV = 2, Lk = 64, Lv = 64, PAGE = 1; // 4 query heads per KV head
  const PagedCache cache({200, 1, 77}, PAGE, 200);
  const int batch = 3;
  const auto q = uniform(size_t(batch) * H * Lk, -1, 1, 54);
  const auto k = uniform(size_t(cache.slots) * H_KV * Lk, -1, 1, 55);
  const auto v = uniform(size_t(cache.slots) * H_KV * Lv, -1, 1, 56);
  const float sm_scale = 0.125f;
  auto mid = poisoned(size_t(batch) * H * kSplits * (Lv + 1));
  constexpr int group = H / H_KV, BLOCK_H = 16; // one program per KV head: cdiv(H, min(16, 4))
  tilec::interpret::launch(
      _fwd_grouped_kernel_stage1<float, group, H, 64, 0, 64, 32, BLOCK_H, kSplits, PAGE, Lk, Lv>,
      tilec::Grid{batch, H / group, kSplits}, q.data(), k.data(), v.data(), sm_scale,
      cache.req_to_tokens.data(), cache.seq_lens.data(), mid.data(), cache.pages_per_seq,
      H * Lk, Lk, H_KV * Lk, Lk, H_KV * Lv, Lv, H * kSplits * (Lv + 1), kSplits * (Lv + 1),
      Lv + 1, 0.0f);
  auto o = poisoned(size_t(batch) * H * Lv + 4);
  merge<Lv>(cache, mid, o, H);
  // tl::dot of float tiles multiplies in tf32 (Triton's default): 2^-11 relative per operand.
  expect_output(o, reference(cache, q, k, v, H, H_KV, Lk, Lv, sm_scale, 0.0f), 2e-4, "o");
}

TEST(CorpusDecodeAttention, MlaRopeDimensionsThroughASecondDot) {
  // DeepSeek's MLA as vLLM runs it: one KV head of 576 (512 + 64 rope dimensions), values the
  // first 512 of it, 16 query heads.
  constexpr int H = 16, Lk = 576, Lv = 512, PAGE = 16;
  const PagedCache cache({77, 1, 40}, PAGE, 77);
  const int batch = 3;
  const auto q = uniform(size_t(batch) * H * Lk, -1, 1, 57);
  const auto kv = uniform(size_t(cache.slots) * Lk, -1, 1, 58);
  std::vector<float> v(size_t(cache.slots) * Lv);
  for (int s = 0; s < cache.slots; ++s)
    std::copy_n(kv.begin() + size_t(s) * Lk, Lv, v.begin() + size_t(s) * Lv);
  const float sm_scale = 1.0f / 24;
  auto mid = poisoned(size_t(batch) * H * kSplits * (Lv + 1));
  tilec::interpret::launch(
      _fwd_grouped_kernel_stage1<float, H, H, 512, 64, 512, 32, 16, kSplits, PAGE, Lk, Lv>,
      tilec::Grid{batch, 1, kSplits}, q.data(), kv.data(), kv.data(), sm_scale,
      cache.req_to_tokens.data(), cache.seq_lens.data(), mid.data(), cache.pages_per_seq, H * Lk,
      Lk, Lk, Lk, Lk, Lk, H * kSplits * (Lv + 1), kSplits * (Lv + 1), Lv + 1, 0.0f);
  auto o = poisoned(size_t(batch) * H * Lv + 4);
  merge<Lv>(cache, mid, o, H);
  expect_output(o, reference(cache, q, kv, v, H, 1, Lk, Lv, sm_scale, 0.0f), 2e-4, "o"); // tf32
}
