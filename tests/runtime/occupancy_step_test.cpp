// The occupancy step's arithmetic (runtime/src/occupancy_step.h): which kernels the runtime
// compiles again for one more block per SM, and with how many registers a thread.
#include "occupancy_step.h"

#include <gtest/gtest.h>

namespace tilec::detail {
namespace {

TEST(OccupancyStep, BlocksByRegistersCountsWholeUnitsPerWarp) {
  EXPECT_EQ(blocks_by_registers(128, 128), 4);
  EXPECT_EQ(blocks_by_registers(142, 128), 3); // 144 a thread: 4608 a warp
  EXPECT_EQ(blocks_by_registers(64, 256), 4);
  EXPECT_EQ(blocks_by_registers(255, 128), 2);
}

TEST(OccupancyStep, AFewRegistersOverAStepGetTheNextBlock) {
  // FLA's recurrent backward: 142 registers, 128 threads, 3 blocks -> 4 blocks at 128.
  OccupancyStep s = next_occupancy_step(142, 128, 3);
  EXPECT_EQ(s.blocks, 4);
  EXPECT_EQ(s.max_registers, 128);
  s = next_occupancy_step(140, 256, 1); // 256 threads: 2 blocks need 128
  EXPECT_EQ(s.blocks, 2);
  EXPECT_EQ(s.max_registers, 128);
}

TEST(OccupancyStep, NoStepForAKernelRunningAQuarterOfTheWarpsAlready) {
  // Measured on an H100, each 0-4% slower stepped: Liger's fused add + RMSNorm backward (2
  // blocks of 8 warps), sparsemax backward (6 of 8), FlagGems' l2 norm (9 of 4).
  EXPECT_EQ(next_occupancy_step(86, 256, 2).blocks, 0);
  EXPECT_EQ(next_occupancy_step(36, 256, 6).blocks, 0);
  EXPECT_EQ(next_occupancy_step(56, 128, 9).blocks, 0);
  EXPECT_EQ(next_occupancy_step(72, 256, 3).blocks, 0); // 24 warps; 4 blocks would need 64
}

TEST(OccupancyStep, NoStepWhenItWouldCutMuchOrNothingIsGained) {
  EXPECT_EQ(next_occupancy_step(168, 128, 3).blocks, 0); // 3 blocks already; 4 need 128: 24% fewer
  EXPECT_EQ(next_occupancy_step(200, 128, 2).blocks, 0); // 3 blocks need 168: 16% fewer
  EXPECT_EQ(next_occupancy_step(128, 128, 4).blocks, 0);  // 5 blocks need 96: 25% fewer
  EXPECT_EQ(next_occupancy_step(40, 128, 12).blocks, 0);  // 13 blocks need 32: 20% fewer
}

TEST(OccupancyStep, NoStepWhenSomethingElseLimits) {
  // Registers would allow 3 blocks, but only 2 fit (shared memory): fewer registers gain nothing.
  EXPECT_EQ(next_occupancy_step(142, 128, 2).blocks, 0);
  // A block of 1024 threads: two would be the SM's 64 warps, so no third.
  EXPECT_EQ(next_occupancy_step(36, 1024, 2).blocks, 0);
  // A GPU with 48 warps an SM (sm_86): 12 warps of 128 threads is its limit.
  SmLimits ampere{65536, 48, 16};
  EXPECT_EQ(next_occupancy_step(40, 128, 12, ampere).blocks, 0);
}

} // namespace
} // namespace tilec::detail

namespace tilec::detail {
namespace {

TEST(OccupancyStep, AStepIsKeptWhenItReachesTheBlocksSpillingLittle) {
  const OccupancyStep step{4, 128};
  EXPECT_TRUE(keeps_stepped_build(step, 4, 0));
  EXPECT_TRUE(keeps_stepped_build(step, 4, 8)); // FLA's backward through NVRTC: 8-byte frame
  EXPECT_FALSE(keeps_stepped_build(step, 3, 0)); // shared memory held it at 3 after all
  EXPECT_FALSE(keeps_stepped_build(step, 4, 256));
  EXPECT_FALSE(keeps_stepped_build(OccupancyStep{}, 4, 0));
}

} // namespace
} // namespace tilec::detail
