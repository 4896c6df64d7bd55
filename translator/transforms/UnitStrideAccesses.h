// UnitStrideAccesses: a load or store whose pointers step along their last dimension by a
// kernel argument gets a second version, for that argument equal to 1.
//
// Kernels written as Triton's tutorials pass every stride, the innermost ones too:
//
//   tl::store(c + rows[:, None] * stride_cm + cols[None, :] * stride_cn, acc, mask);
//   tl::store(c_block_ptr, acc, {0, 1});      // made with {stride_cm, stride_cn}
//   tl::load(inp + m[:, None] * N * K + n[None, :] * K + k, ...)   // K is 1 for a 2-D input
//
// The analyses cannot know that stride_cn is 1 (Triton compiles the kernel again when an
// argument is 1), so each element is its own access: no vectors, no 16-byte runs. Such an
// access becomes
//
//   if (stride_cn == 1) { the access, its pointers computed with 1 } else { the access }
//
// a branch every thread takes the same way (a load's value is the branch's result), whose
// first arm the analyses see as contiguous along the rows. For a load the branch is
// `if constexpr (stride_is_1)`, a specialization fact the launcher computes (ir/SpecFacts.h),
// so that a specialization allocates registers for the copy it runs only; a store keeps the
// run-time branch, which measured faster in tutorial 03's matmul epilogue. An access qualifies when a term of
// its pointer offset (a sum, through chained pointer additions) is a tile varying along the
// last dimension times an integer kernel argument, and every op between that argument and
// the pointers is register arithmetic. The argument's integer casts become constants in the
// copy. Loads in a loop with a tl::dot are left to the pipeline and the copy engine (the
// launcher checks such strides for 1 before it encodes a tensor map).
//
// A scalar term of the offset whose divisibility nothing tells (FlagGems' `+ pid_k`, a
// program id) would still keep the copy's rows from 16-byte vectors, so the condition also
// asks `pid_k % V == 0` (V elements in 16 bytes), and the copy reads the term as
// `tl::multiple_of<V>`: when the branch is taken the rows are contiguous and aligned. A
// program id along y or z reads 0 where the grid has one program along it (another fact).
#pragma once

#include "ir/IR.h"

namespace tilec {

void runUnitStrideAccesses(Kernel &k);

} // namespace tilec
