// CarriedPointerBases: a pointer tile that a loop (without tl::dot) advances by a scalar in
// every iteration is carried as its scalar base; the tile is rebuilt from the base and its
// offsets, which do not change, where the loop body begins and after the loop:
//
//   p = x + row * n + offs;  for (...) { load(p); p += n; }
//   ->  b = x + row * n;  for (...) { p = b + offs; load(p); b += n; }
//
// A thread then carries one pointer instead of one per element, and every element's address
// is the base plus an offset the compiler knows (an immediate of the load). FLA's recurrent
// backward advances seven pointer tiles a step: 142 registers a thread against Triton's 128,
// three programs per SM instead of four, and two waves where Triton needs one. Loops with a
// tl::dot are left to the pipeliner, which stages their pointers itself.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runCarriedPointerBases(Kernel &k);

} // namespace tilec
