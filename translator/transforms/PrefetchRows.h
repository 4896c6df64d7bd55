// PrefetchRows: a program's tile load of a row (a rank-1 tile at p + arange(0, B) or at
// p + (s + arange(0, B)), unmasked or masked by arange(0, B) < n) gets a prefetch of that row
// into L2 ahead of the program's first tile load, issued by one thread through the copy engine.
//
//   before:  %p = addptr %a, %off ; %ptrs = addptr %p, %cols ; ... ; %x = load %ptrs, %mask
//   after:   prefetch_l2 %p, %n [B] ; ... ; %x = load %ptrs, %mask       (%mask = %cols < %n)
//
// ptxas spreads a thread's loads over a long kernel when holding them all would take more
// registers: the later groups then each wait on DRAM, with one block per SM and nothing to
// overlap them with. Prefetched, they wait on L2. Only loads at the kernel's top level (not in
// loops or branches) whose pointer and count are computed before the first tile load; the
// device library leaves out tiles under 8 KB and GPUs before sm_90.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runPrefetchRows(Kernel &k);

} // namespace tilec
