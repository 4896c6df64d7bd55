// SinkWideningCasts: a cast of a tile to a wider element type (bf16 -> float) moves down to
// right before the first op that reads its result, in its own region.
//
//   before:  %w = load W ; %wf = cast<float> %w ; ...two reductions... ; %y = %xc * %wf
//   after:   %w = load W ; ...two reductions... ; %wf = cast<float> %w ; %y = %xc * %wf
//
// Until then the registers hold the narrow elements (two bf16 per register) instead of the
// wide ones: Liger's layer norm forward loads W and B first and converts them at once, which
// took 64 registers a thread where the same kernel with its conversions at their use takes 48
// (ptxas, sm_90a, 4096 columns, 8 warps), and a fifth block per SM. The load stays where it
// was, so its latency is still hidden. Casts that narrow, or whose widths are unknown, stay.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runSinkWideningCasts(Kernel &k);

} // namespace tilec
