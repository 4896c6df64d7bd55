// occupancy_step.h - one more block per SM for a kernel that its registers hold back.
//
// ptxas gives a kernel the registers its schedule wants, up to 255 a thread; a few over a
// step of the register file (128 a thread for blocks of 128 threads: four blocks per SM) cost
// a whole block per SM. When a grid needs more blocks than one wave holds, that is a second
// wave: FLA's recurrent backward at 142 registers ran three programs per SM, two waves of its
// 512, at 0.65x Triton (whose kernel needs 128); compiled to leave room for four, it spilled
// nothing and ran at 1.18x (bench/NOTES.md). So after compiling a specialization the runtime
// looks at its registers, and when they alone limit its blocks per SM, those blocks run fewer
// than a quarter of the SM's warps (with more, latency is hidden already: steps from 16 to 48
// warps ran 0-4% slower), and the next step is close (at most 15% fewer registers), it
// compiles it again with -DTILEC_MIN_BLOCKS=<blocks> (a second argument of the generated
// __launch_bounds__) and keeps that build when it reaches the step and spills at most a few
// registers. TILEC_OCCUPANCY_STEP=0 turns this off;
// TILEC_OCCUPANCY_STEP=print says what it decided for each specialization.
#pragma once

#include <string>

namespace tilec::detail {

/// What an SM holds (the same on sm_80 and sm_90).
struct SmLimits {
  int registers = 65536;
  int warps = 64;
  int blocks = 32;
};

struct OccupancyStep {
  int blocks = 0;        ///< blocks per SM to compile for; 0: no step
  int max_registers = 0; ///< registers a thread may use then
};

/// The next step for a kernel of `threads` threads a block using `registers` a thread, of
/// which `blocks_now` fit on an SM: none unless registers are what limit it, those blocks run
/// fewer than a quarter of the SM's warps, the SM has room for one more block, and that block
/// needs at most 15% fewer registers a thread.
OccupancyStep next_occupancy_step(int registers, int threads, int blocks_now,
                                  const SmLimits &sm = {});

/// Whether the build for `step` is kept: it reaches the step's blocks per SM and spills at
/// most a few registers (FLA's backward at 128 registers, through NVRTC and ptxas: 4 bytes a
/// thread, and 1.71x faster than the build without the bound).
bool keeps_stepped_build(const OccupancyStep &step, int blocks_reached, int local_bytes);

/// Blocks per SM the register file holds (registers are given out per warp, 256 at a time).
int blocks_by_registers(int registers, int threads, const SmLimits &sm = {});

/// False when TILEC_OCCUPANCY_STEP=0.
bool occupancy_steps_enabled();

/// True when TILEC_OCCUPANCY_STEP=print: each compiled specialization's registers, local
/// memory and blocks per SM, and what the step did with them, go to stderr.
bool occupancy_steps_printed();

} // namespace tilec::detail
