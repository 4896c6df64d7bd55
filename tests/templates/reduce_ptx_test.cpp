// A half or bfloat16 tile reduces in float: reduce_tile converts each element once, combines
// in float through the shuffles and shared memory, and rounds the result once. Before, every
// combine of a sum or max rounded back to 16 bits (a cvt.rn per step, and a branch on the
// lane number around each shuffle's combine); a 4096-wide softmax row spent most of its
// instructions there. Sums commute bit for bit, so their shuffles take no branch at all.
#include "ptx_of.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const char *kSource = R"(
#include <tilec/device.cuh>

// One 4096-element row over 512 threads, 8 per thread: max, then sum, as a softmax does.
extern "C" __global__ void row_max_sum(const tl::bfloat16 *x, tl::bfloat16 *out) {
  using L = tilec::Blocked1D<4096, 512, 8>;
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  const int tid = threadIdx.x;
  tl::bfloat16 v[L::ELEMS];
  tilec::load_vec<8>(v, x + blockIdx.x * 4096 + L::coord(tid, 0));
  const tl::bfloat16 m = tilec::reduce_tile<L>(v, tilec::MaxOp{}, tid, smem);
  const tl::bfloat16 s = tilec::reduce_tile<L>(v, tilec::SumOp{}, tid, smem);
  if (tid == 0) {
    out[2 * blockIdx.x] = m;
    out[2 * blockIdx.x + 1] = s;
  }
}
)";

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

void expect_float_reductions(const std::string &arch) {
  std::string ptx = tilec::test::ptx_of(kSource, "reduce.cu", arch);
  ASSERT_FALSE(ptx.empty());
  EXPECT_EQ(count(ptx, "cvt.rn.bf16.f32"), 2u) << "one rounding per reduction\n" << ptx;
  EXPECT_GE(count(ptx, "shfl.sync.bfly"), 18u) << "both reductions shuffle\n" << ptx;
}

} // namespace

TEST(ReducePtx, Sm80) { expect_float_reductions("compute_80"); }
TEST(ReducePtx, Sm90a) { expect_float_reductions("compute_90a"); }
