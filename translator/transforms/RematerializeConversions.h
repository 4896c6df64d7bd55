// RematerializeConversions: a rank-1 tile that layout assignment converts to another layout
// (through shared memory, with barriers) is recomputed in that layout instead, when it is
// cheap index arithmetic: aranges, splats and elementwise ops over them and scalars.
//
// This is what makes `offs_k = k * BLOCK_K + arange<0, BLOCK_K>()`, read by both operands of
// tl::dot, cost nothing extra: each operand's pointers get their own copy of offs_k in the
// slice layout they need, with no conversion left in the loop to stop it from pipelining.
//
//   before:  %30:offs_k = binary "+" %28, %29 : tile<int, BLOCK_K> #4
//            %82 = convert_layout %30:offs_k : tile<int, BLOCK_K> #5
//   after:   %85 = arange [0] [BLOCK_K] : tile<int, BLOCK_K> #5
//            %86:offs_k = binary "+" %28, %85 : tile<int, BLOCK_K> #5
#pragma once

#include "ir/IR.h"

namespace tilec {

void runRematerializeConversions(Kernel &k);

} // namespace tilec
