// A bound on how deeply the CUDA emitter folds single-use values into one expression.
//
// The emitter writes a value used once inside its user's expression instead of a statement of
// its own. A kernel that updates one variable 100,000 times (`o = o + 1;` on a line each) would
// become one expression nested 100,000 deep, which no C++ front end (NVRTC's included) parses;
// every `kMaxFoldDepth` levels the chain is cut by a variable.
#pragma once

#include "ir/IR.h"

#include <set>

namespace tilec {

inline constexpr int kMaxFoldDepth = 64;

/// Adds to `materialized` (value ids written as variables) the values needed to keep every
/// folded expression at most kMaxFoldDepth deep; kernels below the bound are left as they are.
void limitFoldDepth(const Kernel &k, std::set<int> &materialized);

} // namespace tilec
