// PipelineLoads: software pipelining of loops whose loads feed tl::dot (Triton's num_stages).
//
// A load qualifies when it sits directly in a for loop's body, reads a rank-2 tile, fills
// masked-off elements with zero, and only tl::dot reads its result. Its "producer" part is the
// load plus everything its pointers and mask are computed from inside the loop, including the
// carried variables that only advance those pointers (`a_ptrs += BLOCK_K`). The emitter then
// runs the producer NUM_STAGES - 1 iterations ahead of the rest of the body, copying into a
// ring of shared-memory stages with cp.async, and tl::dot reads the stage of its iteration.
//
//   before:  for %k ... { %a = load %ptrs, %mask ; %acc2 = dot %a, %b, %acc ; %p2 = addptr %ptrs,
//   32 } after:   for pipelined ... { %a = load async producer ... ; %acc2 = dot ... ;
//                                %p2 = addptr producer ... }
//
// Once a loop has such loads, its other loads of rank-1 tiles of 4- or 8-byte elements (the
// row statistics an attention backward reads per block, per-column scales) are staged the
// same way, and their users read them from the stage (stage_read), in the layout each wants:
// their latency is hidden as the dot operands' is, and a layout conversion becomes a read.
//
// A loop is left alone (its loads stay in registers and tl::dot stages them itself) when the
// producer part would read a carried variable the rest of the body updates, or when the rest
// of the body reads one of the producer's carried variables.
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

namespace tilec {

/// Pipelines the loops of `k`; nothing on a target without cp.async.
void runPipelineLoads(Kernel &k, const Target &target);

} // namespace tilec
