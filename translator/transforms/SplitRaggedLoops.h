// SplitRaggedLoops: a loop over blocks whose masks are all true in every iteration but the
// last ones runs those iterations unmasked.
//
// Kernels walk a row in blocks and mask each block against the row's end, as Triton's do:
//
//   for (int i = 0; i < n; i += BLOCK) {
//     auto offs = i + tl::arange<0, BLOCK>();
//     auto x = tl::load(p + offs, offs < n, 0.0f);
//
// `offs < n` is all true while i + BLOCK - 1 < n, so every block but the ragged last one pays
// for a compare per element, masked (one element wide) loads, and selects for nothing. The
// loop becomes two copies of itself: the first runs the iterations in which each such
// compare is all true, with the compare replaced by `true` and the masks it fed folded away;
// the second, the original, runs the rest from where the first stopped. The iterations run
// in the same order as before, so the kernel means what it meant.
//
// A compare qualifies when it is `e < x` (or <=, or the mirror images) with x an integer
// scalar defined outside the loop and e the induction variable i, or i * c, plus at most one
// loop-invariant scalar, plus tiles of known upper bound (arange, constants), through
// expand_dims, broadcasts and splats; or, spelled with advancing pointers, `arange < n - i`.
// The first loop stops before the first i for which
// some qualifying compare can be false: the end it runs to is computed in 64 bits before the
// loop (`<i>_unmasked_end`), and the iteration it stops at is carried out of it
// (`<i>_next`); the copy is marked `rolled` (`#pragma unroll 1`: unrolled by nvcc, two
// blocks' registers spilled in a streaming loop). Only innermost loops are split, and loops
// unrolled by tl::static_range are left as they are. In a loop with a tl::dot, only the
// compares that mask computed tiles fold (attention's `where(cols < n, s, -inf)` on the
// scores): the loads keep their masks, so that each copy pipelines its loads as before (a
// copy masked exactly to the matrix can come from the copy engine), and a dot loop that
// carries pointers is not split (a pipelined loop's pointers are not read after it).
#pragma once

#include "ir/IR.h"

namespace tilec {

void runSplitRaggedLoops(Kernel &k);

} // namespace tilec
