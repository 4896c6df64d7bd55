// TILEC_LAUNCH_BOUNDS, the generated kernels' __launch_bounds__: the block size only, unless
// the runtime compiles again with -DTILEC_MIN_BLOCKS=N for the next occupancy step
// (runtime/src/occupancy_step.h); then N blocks per SM as well. No second argument by
// default: ptxas does not treat `.minnctapersm 1` as its absence (MLA decode's unaligned
// variants spilled 3646 bytes with it, 3104 without).
#include "ptx_of.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const char *kSource = R"(
#include <tilec/device.cuh>

template <int NUM_WARPS>
__global__ void TILEC_LAUNCH_BOUNDS(NUM_WARPS * tilec::WARP_SIZE) bounded(float *y) {
  y[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
template __global__ void bounded<4>(float *);
)";

TEST(LaunchBoundsPtx, TheBlockSizeOnlyByDefault) {
  const std::string ptx = tilec::test::ptx_of(kSource, "launch_bounds.cu", "compute_90a");
  EXPECT_EQ(tilec::test::count(ptx, ".maxntid 128"), 1u) << ptx;
  EXPECT_EQ(tilec::test::count(ptx, ".minnctapersm"), 0u) << ptx;
}

TEST(LaunchBoundsPtx, BlocksPerSmFromTheFlag) {
  const std::string ptx = tilec::test::ptx_of(kSource, "launch_bounds.cu", "compute_90a",
                                              {"-DTILEC_MIN_BLOCKS=3"});
  EXPECT_EQ(tilec::test::count(ptx, ".maxntid 128"), 1u) << ptx;
  EXPECT_EQ(tilec::test::count(ptx, ".minnctapersm 3"), 1u) << ptx;
}

} // namespace
