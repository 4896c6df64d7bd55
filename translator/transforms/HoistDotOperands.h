// HoistDotOperands: a tl::dot operand that does not change inside its loop is copied to
// shared memory once, before the loop, instead of once per iteration.
//
// The tensor cores read their operands from shared memory; a register operand goes through
// the dot's scratch buffer each time the dot runs. Attention's Q tile is loaded once and read
// by every iteration's Q K^T: the pass gives it a buffer of its own (local_alloc, in dynamic
// shared memory after the pipeline's stages) filled before the loop, and the dot reads it
// there. In a loop nest the buffer goes before the outermost loop the operand is invariant
// in.
//
//   before:  %41:q_tile = load ...
//            for ... { %73:qk = dot %41:q_tile, %70:k_t, %72 }
//   after:   %41:q_tile = load ...
//            %90:q_tile = local_alloc %41:q_tile : smem<T, BLOCK_M, HEAD_DIM>
//            for ... { %73:qk = dot %90:q_tile, %70:k_t, %72 }
#pragma once

#include "ir/IR.h"

namespace tilec {

void runHoistDotOperands(Kernel &k);

} // namespace tilec
