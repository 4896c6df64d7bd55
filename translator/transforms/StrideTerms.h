// StrideTerms: how a pointer tile's offset is made of terms and kernel arguments, for the
// passes that copy accesses or loops with a stride argument equal to 1 (unit-stride-accesses,
// unit-stride-dot-loops).
#pragma once

#include "ir/IR.h"

#include <map>
#include <set>
#include <vector>

namespace tilec {

/// `v` without integer casts and broadcasts (value-preserving around one product).
const Value *stripCastsAndBroadcasts(const Value *v);

/// The integer kernel argument `v` is (through casts and broadcasts), or null.
const Value *integerParam(const Value *v);

/// The terms of the pointers' offset (a sum, through integer casts and broadcasts), through
/// chained pointer additions. A loop's carried pointer found in `carriedInits` stands for the
/// value it starts from (it moves by uniform offsets only).
std::vector<const Value *>
offsetTerms(const Value *ptrs, const std::map<const Value *, const Value *> &carriedInits = {});

/// The register-arithmetic ops between `args` and `roots` (those reading an argument, directly
/// or not), operands before their readers; false when one of them is not register arithmetic.
bool sliceFromArgs(const std::vector<const Value *> &roots, const std::set<const Value *> &args,
                   std::vector<const Op *> &slice);

} // namespace tilec
