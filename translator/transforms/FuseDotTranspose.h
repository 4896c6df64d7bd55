// FuseDotTranspose: tl::dot reads a transposed operand straight from shared memory.
//
// `tl::dot(a, tl::trans(bt))` (B stored as [N, K], as in A @ B^T) would move bt between threads
// twice: through shared memory for trans, then into shared memory again for the tensor cores.
// The tensor cores can read either orientation (ldmatrix with or without .trans), so the dot
// takes bt itself and notes that its B is transposed; when tl::dot operands are all the trans's
// uses, each dot does so and the trans goes away. The same for A.
//
//   before:  %9 = trans %8:bt ; %10 = dot %5:a, %9, %3:acc
//   after:   %10 = dot b^T %5:a, %8:bt, %3:acc
#pragma once

#include "ir/IR.h"

namespace tilec {

void runFuseDotTranspose(Kernel &k);

} // namespace tilec
