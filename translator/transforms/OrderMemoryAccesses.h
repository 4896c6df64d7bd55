// OrderMemoryAccesses: a barrier between two global-memory accesses of a program that other
// threads could make to the same element, when at least one of them writes.
//
// The interpreter runs a program's accesses in order; on the GPU its threads run them each
// on their own elements: a tile store is spread over all threads, a scalar store is made by
// one thread (tid 0), a scalar load by every thread. So a tile store followed by a scalar
// store to one of its elements (a cross-entropy gradient row, then the target's element), a
// scalar store followed by a tile load of it, or a tile store read back in another layout,
// race unless every thread waits for the others in between. This pass inserts that barrier
// (tl::debug_barrier does the same by hand).
//
// Two accesses may touch the same element when their pointers come from the same pointer
// argument, or from a pointer whose origin the pass cannot follow; pointer arguments are
// taken not to overlap each other. Accesses in a loop body also follow the body's own
// accesses of the previous iteration. Atomics are writes; tile-by-tile pairs in the same
// layout touch each element from the same thread and need no barrier. The accesses of a
// branch that ends with a return precede nothing after its `if` (Liger's cross-entropy zeroes
// an ignored row and returns; the target's load after it needs no barrier).
#pragma once

#include "ir/IR.h"

namespace tilec {

void runOrderMemoryAccesses(Kernel &k);

} // namespace tilec
