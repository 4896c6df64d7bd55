#include "occupancy_step.h"

#include <algorithm>
#include <cstdlib>

namespace tilec::detail {

namespace {

constexpr int kRegisterUnit = 256; // registers a warp is given at a time
constexpr int kMaxCutPercent = 15; // the most registers a step may take away
constexpr int kMaxStepSpillBytes = 32; // local memory a thread a kept step may use
// A kernel that runs at least this share of an SM's warps already hides its latency: on an
// H100, steps from 16-48 warps an SM ran 0-4% slower, and the one from 12 warps (FLA's
// backward, 3 -> 4 blocks) 1.69x faster (bench/NOTES.md).
constexpr int kStepBelowWarpsDivisor = 4; // below a quarter of the SM's warps

int warpsOf(int threads) { return (threads + 31) / 32; }

} // namespace

int blocks_by_registers(int registers, int threads, const SmLimits &sm) {
  const int perWarp = (registers * 32 + kRegisterUnit - 1) / kRegisterUnit * kRegisterUnit;
  return perWarp > 0 ? sm.registers / (perWarp * warpsOf(threads)) : sm.blocks;
}

OccupancyStep next_occupancy_step(int registers, int threads, int blocks_now,
                                  const SmLimits &sm) {
  const int warps = warpsOf(threads);
  if (registers <= 0 || warps <= 0 || blocks_now <= 0 ||
      blocks_now < blocks_by_registers(registers, threads, sm))
    return {}; // shared memory, warps or blocks limit it first
  if (blocks_now * warps * kStepBelowWarpsDivisor >= sm.warps)
    return {}; // enough warps to hide latency: fewer registers would only cost instructions
  const int blocks = blocks_now + 1;
  if (blocks * warps > sm.warps || blocks > sm.blocks)
    return {};
  // The most registers a thread may have with `blocks` blocks, in whole units per warp.
  const int cap = std::min(255, sm.registers / (blocks * warps) / kRegisterUnit * kRegisterUnit / 32);
  if (cap >= registers || cap * 100 < registers * (100 - kMaxCutPercent))
    return {};
  return {blocks, cap};
}

bool keeps_stepped_build(const OccupancyStep &step, int blocks_reached, int local_bytes) {
  return step.blocks > 0 && blocks_reached >= step.blocks && local_bytes >= 0 &&
         local_bytes <= kMaxStepSpillBytes;
}

/// TILEC_OCCUPANCY_STEP, read once: "0" turns the step off, "print" reports each decision.
static const std::string &step_setting() {
  static const std::string setting = [] {
    const char *v = std::getenv("TILEC_OCCUPANCY_STEP");
    return std::string(v ? v : "");
  }();
  return setting;
}

bool occupancy_steps_enabled() { return step_setting() != "0"; }

bool occupancy_steps_printed() { return step_setting() == "print"; }

} // namespace tilec::detail
