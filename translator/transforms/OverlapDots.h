// OverlapDots: on sm_90a, two independent tl::dots of one region run on the tensor cores back
// to back: the first is issued without waiting (`nowait`), the second right after it (moved
// up, with the stage views and zero accumulators it reads, when nothing between them is
// needed), and a dot_wait after the second completes the first before anything reads it.
// Every tl::dot otherwise waits for its wgmmas where it is issued, and the tensor cores idle
// while the next one is prepared. An attention backward's `Q K^T` and `dO V^T` (the dQ
// kernel), or `K Q^T` and `V dO^T` (dK/dV), are such pairs.
//
//   before:  %s = dot %q, %k_t, %z ; %p = exp2(%s ...) ; %vt = stage_view ... ;
//            %dp = dot %do, %vt, %z2 ; ...
//   after:   %s = dot nowait %q, %k_t, %z ; %vt = stage_view ... ; %dp = dot %do, %vt, %z2
//            dot_wait %s ; %p = exp2(%s ...) ; ...
//
// The first dot reads both operands from shared memory (a register operand would have to stay
// untouched while in flight); the second moves only across register arithmetic, stage views
// and reads, and reductions (nothing that writes the shared memory it reads or makes it ready).
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

namespace tilec {

void runOverlapDots(Kernel &k, const Target &target);

} // namespace tilec
