// AxisInfo analysis: contiguity, divisibility and constancy of integer and pointer values
// (Triton's AxisInfo), as symbolic expressions over template parameters and the DIV16
// specialization facts of the kernel's arguments.
//
//   offs = pid * BLOCK + arange<0, BLOCK>()   ->  contig=BLOCK div=pow2_factor(BLOCK) const=1
//   x + offs   (x: const float*)               ->  contig=BLOCK div=gcd((x_aligned ? 16 : 4), ...)
//   offs < n                                   ->  const=gcd(BLOCK, gcd(..., (n_div16 ? 16 : 1)))
#pragma once

#include "ir/IR.h"

#include <string>

namespace tilec {

/// The constexpr bool in generated code that says argument `p` carries the div16 fact.
std::string div16FactName(const KernelParam &p);

void runAxisInfo(Kernel &k);

/// `runs` (a contiguity) with every "stride == 1 ?" select (a template parameter that might be
/// 1) taken as false: the runs an access has for every value of its template parameters.
SymExpr assuredRuns(const SymExpr &runs);

} // namespace tilec
