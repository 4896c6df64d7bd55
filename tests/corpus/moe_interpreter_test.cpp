// vLLM's fused MoE projection (kernels/vllm_fused_moe.cpp) in the interpreter against a
// double-precision reference: tokens routed to two experts each, N and K not multiples of
// the blocks, A's rows padded, one expert off this rank (its rows zero), blocks past the used
// part of the routing table (they exit), and the expert weights both as vLLM stores them
// ([E, N, K]) and as [E, K, N].
#include "corpus_support.h"
#include "moe_routing.h"

#include <tilec/interpret.h>

#include "kernels/vllm_fused_moe.cpp"

using namespace corpus;

namespace {

/// The inputs as tf32 holds them (10 bits of mantissa): tl::dot of float tiles multiplies in
/// tf32, as Triton's does, so the reference is exact up to the float sums.
void toTf32(std::vector<float> &v) {
  for (float &x : v) {
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    bits &= 0xffffe000u;
    std::memcpy(&x, &bits, 4);
  }
}

void checkMoe(bool weights_nk) {
  SCOPED_TRACE(weights_nk ? "B as [E, N, K]" : "B as [E, K, N]");
  const int tokens = 37, top_k = 2, E = 4, N = 50, K = 45, lda = K + 3;
  constexpr int BM = 16, BN = 16, BK = 16;
  MoeRouting r = route(tokens, top_k, E, BM, {2}, 41);
  auto a = uniform(size_t(tokens) * lda, -1, 1, 42);
  auto b = uniform(size_t(E) * N * K, -1, 1, 43);
  toTf32(a);
  toTf32(b);
  auto c = poisoned(size_t(r.valid) * N);
  const int64_t stride_be = int64_t(N) * K;
  const int64_t stride_bk = weights_nk ? 1 : N, stride_bn = weights_nk ? K : 1;
  const int EM = int(r.sorted_ids.size());
  const int programs = ((EM + BM - 1) / BM) * ((N + BN - 1) / BN);
  tilec::interpret::launch(fused_moe_kernel<float, BM, BN, BK, 2, true, top_k>,
                           tilec::Grid{uint32_t(programs)}, a.data(), b.data(), c.data(),
                           r.weights.data(), r.sorted_ids.data(), r.expert_ids.data(),
                           &r.post_padded, N, K, EM, r.valid, int64_t(lda), int64_t(1),
                           stride_be, stride_bk, stride_bn, int64_t(N), int64_t(1));
  for (int f = 0; f < r.valid; ++f) {
    const int t = f / top_k, e = r.expert_of[size_t(f)];
    for (int n = 0; n < N; ++n) {
      double want = 0;
      if (e != 2) {
        for (int k = 0; k < K; ++k)
          want += double(a[size_t(t) * lda + k]) *
                  b[size_t(e * stride_be + k * stride_bk + n * stride_bn)];
        want *= r.weights[size_t(f)];
      }
      ASSERT_TRUE(close(c[size_t(f) * N + n], want, 1e-5, 1e-5, "c", size_t(f) * N + n));
    }
  }
}

} // namespace

TEST(CorpusMoe, FusedMoeWeightsAsVllmStoresThem) { checkMoe(true); }
TEST(CorpusMoe, FusedMoeWeightsKByN) { checkMoe(false); }
