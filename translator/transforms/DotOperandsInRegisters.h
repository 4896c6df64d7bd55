// DotOperandsInRegisters: a tl::dot whose A operand was computed from another dot's result
// (attention's P = cast<half>(exp2(S - m))) reads it from registers, where the tensor cores
// can take it, instead of through the shared scratch buffer.
//
// The operand lives in the mma layout (layout assignment keeps elementwise ops on a dot result
// there), whose 16 x 8 accumulator fragments are, two by two, the 16 x 16 register fragments
// the tensor cores read A from. The dot is marked `a:regs`; the device library
// (tilec::dot_regs_a) uses wgmma with A in registers where the warps split the rows alike, and
// stages A in shared memory otherwise. Only when B is already in shared memory (a pipeline
// stage or a local_alloc), so that the dot needs no scratch at all.
//
//   before:  %122:acc = dot "tf32" %121, %120:v_tile, %105:acc
//   after:   %122:acc = dot "tf32" a:regs %121, %120:v_tile, %105:acc
#pragma once

#include "ir/IR.h"

namespace tilec {

/// Runs after pipeline (it needs to know which loads are staged).
void runDotOperandsInRegisters(Kernel &k);

} // namespace tilec
