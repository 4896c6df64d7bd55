// A tl::dot with a long K on the mma.sync path (vLLM MLA's q . k: [16, 512] x [512, 32] in
// bf16, 4 warps) must not be one straight line of 32 K steps: ptxas then loads every step's
// fragments before the first mma, and in the MLA kernel (beside a 64-register accumulator) it
// spilled 6 KB a thread (0 with 8 steps per loop body: nvcc -Xptxas -v on the generated
// kernel). This isolated kernel does not spill either way, so the test checks the structure:
// mma_block unrolls at most kMaxUnrolledSteps steps, and a short K (attention's 128) stays
// straight-line code.
#include "ptx_of.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using tilec::test::body_of;
using tilec::test::count;

const char *kSource = R"(
#include <tilec/device.cuh>

template <int K>
__device__ void q_dot_k(const tl::bfloat16 *q, const tl::bfloat16 *k, float *out) {
  using L = tilec::MmaLayout<16, 32, 128>;
  using TA = tilec::SmemTile<16, K, tl::bfloat16>;
  using TB = tilec::SmemTile<32, K, tl::bfloat16>;
  __shared__ alignas(1024) tl::bfloat16 sa[TA::ELEMS], sb[TB::ELEMS];
  const int tid = threadIdx.x;
  for (int i = tid; i < TA::ELEMS; i += 128)
    sa[i] = q[i];
  for (int i = tid; i < TB::ELEMS; i += 128)
    sb[i] = k[i];
  // MLA's [16, 512] float accumulator of P V: 64 registers a thread, live across q . k.
  float live[64];
  for (int i = 0; i < 64; ++i)
    live[i] = q[tid * 64 + i];
  __syncthreads();
  float acc[L::ELEMS];
  tilec::dot_smem<L, TA, TB, tilec::DotTf32, false, true, true, true>(sa, sb, acc, tid);
  for (int i = 0; i < L::ELEMS; ++i)
    out[tid * L::ELEMS + i] = acc[i] * live[i];
  for (int i = 0; i < 64; ++i)
    out[4096 + tid * 64 + i] = live[i];
}

extern "C" __global__ void __launch_bounds__(128) long_k(const tl::bfloat16 *q,
                                                         const tl::bfloat16 *k, float *out) {
  q_dot_k<512>(q, k, out);
}

extern "C" __global__ void __launch_bounds__(128) short_k(const tl::bfloat16 *q,
                                                          const tl::bfloat16 *k, float *out) {
  q_dot_k<128>(q, k, out);
}
)";

TEST(LongDot, MmaStepsUnrolledByEight) {
  for (const char *arch : {"compute_80", "compute_90a"}) {
    SCOPED_TRACE(arch);
    const std::string ptx = tilec::test::ptx_of(kSource, "long_dot.cu", arch);
    ASSERT_FALSE(ptx.empty());
    // One warp's 16 x 8 of the product per K step: 32 steps for K = 512, 8 for K = 128.
    EXPECT_EQ(count(body_of(ptx, "long_k"), "mma.sync"), 8u) << "K = 512: 8 steps per loop body";
    EXPECT_EQ(count(body_of(ptx, "short_k"), "mma.sync"), 8u) << "K = 128: straight-line code";
  }
}

} // namespace
