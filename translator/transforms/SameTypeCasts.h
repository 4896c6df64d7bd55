// SameTypeCasts: a loop whose tl::dot reads a loaded tile cast to another type parameter
// (`tl::cast<DOT_T>(tl::load(p))`, Triton's `.to(dot_dtype)`, the type the host passes as a
// constexpr) gets a copy for the specializations in which the two types are one, where the
// casts are gone:
//
//   if constexpr (tilec::is_same_v<T, DOT_T>) { the loop, the dot reading the loads }
//   else { the loop as written }
//
// Triton compiles the cast away where the types agree; here the types are template
// parameters, known only where the CUDA is instantiated. Without the copy the load's user is
// a cast, so the loop is not pipelined, its operands reach the tensor cores through registers,
// and the copy engine takes none of them (Mamba's SSD kernels cast every operand so).
#pragma once

#include "ir/IR.h"

namespace tilec {

void runSameTypeCasts(Kernel &k);

/// How the condition of the branches this pass makes begins.
inline constexpr const char *kSameTypeCondition = "tilec::is_same_v<";

} // namespace tilec
