// UnswitchConstexprIfs: a tl::dot loop whose body holds an `if constexpr` with loads in it
// (Triton's `if BLOCK_DPE > 0:` or `if HAS_BIAS:` on a constexpr, inside the loop) becomes
// two copies of the loop, one per branch, each with that branch's ops at its top level:
//
//   if constexpr (cond) { the loop, the then-branch inlined }
//   else { the loop, the else-branch inlined }
//
// The condition is the same in every iteration, so the copies do what the loop did. Passes
// that schedule a loop's own top level see the branch's loads there: the pipeliner copies them
// to shared memory stages ahead, where inside the branch they would wait for global memory in
// every iteration (vLLM's MLA decode reads its rotary keys so). At most two branches a loop
// nest are unswitched (four copies).
#pragma once

#include "ir/IR.h"

namespace tilec {

void runUnswitchConstexprIfs(Kernel &k);

} // namespace tilec
