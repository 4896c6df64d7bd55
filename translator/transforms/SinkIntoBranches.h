// SinkIntoBranches: a run-time `if` whose branches make tiles that only a short piece of
// straight-line code after it reads (arithmetic, loads, stores, to the end of its block) gets
// a copy of that code at the end of each branch:
//
//   if (c) { x = f(...); } else { x = g(...); }  store(p, x * s);
//   ->  if (c) { x = f(...); store(p, x * s); } else { x = g(...); store(p, x * s); }
//
// Joined, every element of the branch's tiles is live at once where the branches meet, and
// the CUDA compiler must hold them all (Liger's JSD chooses its loss and gradient by a
// run-time test of beta, which Triton's constexpr resolves: two 32768-element tiles met
// there, and ptxas spilled 68 KB a thread). Copied, each branch computes and stores its
// elements in one stream. A nested `if` in a branch gets the copy in turn; a tail of more
// than 32 ops, or one with loops, branches, reductions or barriers, is left where it is.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runSinkIntoBranches(Kernel &k);

} // namespace tilec
