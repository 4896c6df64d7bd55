// FuseArgReductions: tl::max and tl::argmax of the same tile along the same dimension (or
// tl::min and tl::argmin) become one reduction of (value, index) pairs; the max reads its
// values off the argmax.
//
// Kernels that want a row's maximum and where it is (argmax kernels, cross-entropy's row
// statistics) write both calls, as Triton's `tl.max(x, axis, return_indices=True)` does in
// one. Two reductions keep the whole tile live across both, each with its own shuffles and
// barriers; one reduction reads it once. The fused max gets the argmax's result as a second
// operand and the emitter writes both from one pass over the tile.
//
//   before:  %20:local_max = reduce "max" %18:inp_vals [1] : tile<T, BLOCK_M> #1
//            %21:local_argmax = reduce "argmax" %18:inp_vals [1] : tile<int, BLOCK_M> #1
//   after:   %21:local_argmax = reduce "argmax" %18:inp_vals [1] : tile<int, BLOCK_M> #1
//            %20:local_max = reduce "max" %18:inp_vals, %21:local_argmax [1] : tile<T, BLOCK_M> #1
//
// A max of a half tile is the max of its float conversion: the pair still fuses, the max
// reading the half tile and converting the winners. Only where the emitter reduces with
// shuffles (a blocked rank-2 tile); the others keep their two reductions.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runFuseArgReductions(Kernel &k);

/// The argmax (argmin) a fused max (min) reads its values from, or null.
const Value *fusedArgReduction(const Op &op);

} // namespace tilec
