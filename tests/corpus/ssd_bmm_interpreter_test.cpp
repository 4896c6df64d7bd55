// Mamba-2's chunked products (kernels/mamba_ssd_bmm.cpp) in the interpreter against double
// sums: out = a b^T per chunk, causal (the blocks above the diagonal left as they were) and
// not, with sequence boundaries zeroing the products across them, and its backward db = dout^T
// a (+ residual); 2 batch entries of 300 positions in chunks of 128 (the last one partial),
// 2 groups, K = 40 (not a multiple of the K blocks); outputs poisoned before each run.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/mamba_ssd_bmm.cpp"

using namespace corpus;

namespace {

constexpr int kBatch = 2, kSeqlen = 300, kChunk = 128, kGroups = 2, kK = 40;
constexpr int kChunks = (kSeqlen + kChunk - 1) / kChunk;

// a, b, res: [batch, seqlen, groups, K]; out, dout: [batch, chunks, groups, chunk, chunk].
size_t at_seq(int b, int pos, int g, int k) {
  return ((size_t(b) * kSeqlen + pos) * kGroups + g) * kK + k;
}
size_t at_chunk(int b, int c, int g, int m, int n) {
  return (((size_t(b) * kChunks + c) * kGroups + g) * kChunk + m) * kChunk + n;
}

template <bool CAUSAL, bool SEQ_IDX> void check_forward() {
  SCOPED_TRACE(::testing::Message() << "causal " << CAUSAL << ", seq_idx " << SEQ_IDX);
  constexpr int BM = 32, BN = 64, BK = 32;
  const auto a = uniform(size_t(kBatch) * kSeqlen * kGroups * kK, -1, 1, 81);
  const auto b = uniform(a.size(), -1, 1, 82);
  std::vector<int32_t> seq_idx(size_t(kBatch) * kSeqlen);
  for (int bb = 0; bb < kBatch; ++bb)
    for (int p = 0; p < kSeqlen; ++p)
      seq_idx[size_t(bb) * kSeqlen + p] = p < 100 + 50 * bb ? 0 : 1;
  auto out = poisoned(size_t(kBatch) * kChunks * kGroups * kChunk * kChunk);
  const int blocks = (kChunk / BM) * (kChunk / BN);
  tilec::interpret::launch(
      _bmm_chunk_fwd_kernel<float, float, float, CAUSAL, SEQ_IDX, BM, BN, BK>,
      tilec::Grid{uint32_t(blocks), kBatch, kChunks * kGroups}, a.data(), b.data(), out.data(),
      seq_idx.data(), kSeqlen, kChunk, kK, kGroups, kSeqlen * kGroups * kK, kGroups * kK, kK, 1,
      kSeqlen * kGroups * kK, kGroups * kK, kK, 1, kChunks * kGroups * kChunk * kChunk,
      kGroups * kChunk * kChunk, kChunk * kChunk, kChunk, 1, kSeqlen, 1);
  for (int bb = 0; bb < kBatch; ++bb)
    for (int c = 0; c < kChunks; ++c)
      for (int g = 0; g < kGroups; ++g)
        for (int m = 0; m < kChunk; ++m)
          for (int n = 0; n < kChunk; ++n) {
            const float got = out[at_chunk(bb, c, g, m, n)];
            if (CAUSAL && n / BN * BN >= (m / BM + 1) * BM) { // a block the kernel skips
              ASSERT_TRUE(untouched(got)) << "m=" << m << " n=" << n;
              continue;
            }
            const int pm = c * kChunk + m, pn = c * kChunk + n;
            double want = 0;
            if (pm < kSeqlen && pn < kSeqlen)
              for (int k = 0; k < kK; ++k)
                want += double(a[at_seq(bb, pm, g, k)]) * b[at_seq(bb, pn, g, k)];
            if (SEQ_IDX && !(pm < kSeqlen && pn < kSeqlen &&
                             seq_idx[size_t(bb) * kSeqlen + pm] ==
                                 seq_idx[size_t(bb) * kSeqlen + pn]))
              want = 0;
            // tl::dot of float tiles multiplies in tf32 (Triton's default): 2^-11 of each product
            ASSERT_TRUE(close(got, want, 5e-3, 1e-3, "out", at_chunk(bb, c, g, m, n)));
          }
}

template <bool RESIDUAL> void check_backward() {
  SCOPED_TRACE(::testing::Message() << "residual " << RESIDUAL);
  constexpr int BM = 64, BN = 32, BCS = 32;
  const auto a = uniform(size_t(kBatch) * kSeqlen * kGroups * kK, -1, 1, 83);
  const auto res = uniform(a.size(), -1, 1, 84);
  const auto dout = uniform(size_t(kBatch) * kChunks * kGroups * kChunk * kChunk, -1, 1, 85);
  auto db = poisoned(a.size() + 4);
  const int blocks = (kChunk / BM) * ((kK + BN - 1) / BN);
  tilec::interpret::launch(
      _bmm_chunk_bwd_kernel<float, float, float, RESIDUAL, BM, BN, BCS>,
      tilec::Grid{uint32_t(blocks), kBatch, kChunks * kGroups}, a.data(), dout.data(), db.data(),
      res.data(), kSeqlen, kChunk, kK, kGroups, kSeqlen * kGroups * kK, kGroups * kK, kK, 1,
      kChunks * kGroups * kChunk * kChunk, kGroups * kChunk * kChunk, kChunk * kChunk, kChunk, 1,
      kSeqlen * kGroups * kK, kGroups * kK, kK, 1, kSeqlen * kGroups * kK, kGroups * kK, kK, 1);
  for (int bb = 0; bb < kBatch; ++bb)
    for (int p = 0; p < kSeqlen; ++p)
      for (int g = 0; g < kGroups; ++g)
        for (int n = 0; n < kK; ++n) {
          const int c = p / kChunk, m = p % kChunk;
          const int limit = std::min(kChunk, kSeqlen - c * kChunk);
          double want = RESIDUAL ? double(res[at_seq(bb, p, g, n)]) : 0.0;
          for (int s = 0; s < limit; ++s)
            want += double(dout[at_chunk(bb, c, g, s, m)]) * a[at_seq(bb, c * kChunk + s, g, n)];
          ASSERT_TRUE(close(db[at_seq(bb, p, g, n)], want, 1e-2, 1e-3, "db", at_seq(bb, p, g, n))); // tf32
        }
  for (size_t i = a.size(); i < db.size(); ++i)
    ASSERT_TRUE(untouched(db[i])) << "written past db at " << i;
}

} // namespace

TEST(CorpusMambaSsd, ChunkProductForward) {
  check_forward<false, false>();
  check_forward<true, true>();
}

TEST(CorpusMambaSsd, ChunkProductBackward) {
  check_backward<false>();
  check_backward<true>();
}
