// Reductions of bfloat16 tiles without needless work: reduce_tile takes the max of a
// bfloat16 tile in float (exact), converting each element once and rounding the result once,
// where every combine used to round back to 16 bits (a cvt.rn per step) behind a branch on the
// lane number; a sum, whose operands commute bit for bit, shuffles with no such branch. A
// 4096-wide softmax row spent most of its instructions there. A bfloat16 sum adds with the
// 16-bit instruction (add.bf16; fma.rn.bf16 on sm_80): the same bits as adding in float and
// rounding, without the two conversions per step.
#include "ptx_of.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using tilec::test::body_of;
using tilec::test::count;

const char *kSource = R"(
#include <tilec/device.cuh>

// One 4096-element row over 512 threads, 8 per thread: its max, or its sum.
using L = tilec::Blocked1D<4096, 512, 8>;
extern "C" __global__ void row_max(const tl::bfloat16 *x, tl::bfloat16 *out) {
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  tl::bfloat16 v[L::ELEMS];
  tilec::load_vec<8>(v, x + blockIdx.x * 4096 + L::coord(threadIdx.x, 0));
  out[blockIdx.x * 512 + threadIdx.x] = tilec::reduce_tile<L>(v, tilec::MaxOp{}, threadIdx.x, smem);
}
extern "C" __global__ void row_sum_bf16(const tl::bfloat16 *x, tl::bfloat16 *out) {
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  tl::bfloat16 v[L::ELEMS];
  tilec::load_vec<8>(v, x + blockIdx.x * 4096 + L::coord(threadIdx.x, 0));
  out[blockIdx.x * 512 + threadIdx.x] = tilec::reduce_tile<L>(v, tilec::SumOp{}, threadIdx.x, smem);
}
extern "C" __global__ void row_sum(const float *x, float *out) {
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  float v[L::ELEMS];
  tilec::load_vec<4>(v, x + blockIdx.x * 4096 + L::coord(threadIdx.x, 0));
  tilec::load_vec<4>(v + 4, x + blockIdx.x * 4096 + L::coord(threadIdx.x, 4));
  out[blockIdx.x * 512 + threadIdx.x] = tilec::reduce_tile<L>(v, tilec::SumOp{}, threadIdx.x, smem);
}
)";

void expect_lean_reductions(const std::string &arch) {
  std::string ptx = tilec::test::ptx_of(kSource, "reduce.cu", arch);
  ASSERT_FALSE(ptx.empty());
  std::string max = body_of(ptx, "row_max"), sum = body_of(ptx, "row_sum");
  ASSERT_FALSE(max.empty() || sum.empty()) << ptx;
  EXPECT_EQ(count(max, "cvt.rn.bf16.f32"), 1u) << "the max rounds once\n" << max;
  EXPECT_EQ(count(max, "shfl.sync.bfly"), 9u) << "5 steps in a warp, 4 across warps\n" << max;
  EXPECT_EQ(count(sum, "shfl.sync.bfly"), 9u) << sum;
  // One branch: the warps' first lanes writing their partial sums to shared memory.
  EXPECT_EQ(count(sum, "bra"), 1u) << "a sum's shuffles need no branch\n" << sum;
  std::string sum16 = body_of(ptx, "row_sum_bf16");
  ASSERT_FALSE(sum16.empty()) << ptx;
  // 7 adds in a thread, 5 shuffle steps in a warp, 4 across warps: 16, none through float.
  const char *add16 = arch == "compute_80" ? "fma.rn.bf16" : "add.bf16";
  EXPECT_EQ(count(sum16, add16), 16u) << sum16;
  EXPECT_EQ(count(sum16, "cvt.rn.bf16.f32"), 0u) << "no rounding from float\n" << sum16;
  EXPECT_EQ(count(sum16, "cvt.f32.bf16"), 0u) << "no widening to float\n" << sum16;
}

} // namespace

TEST(ReducePtx, Sm80) { expect_lean_reductions("compute_80"); }
TEST(ReducePtx, Sm90a) { expect_lean_reductions("compute_90a"); }
