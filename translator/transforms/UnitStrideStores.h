// UnitStrideStores: a store whose pointers step along their last dimension by a kernel
// argument gets a second version, for that argument equal to 1.
//
// Kernels written as Triton's tutorials pass every stride, the innermost ones too:
//
//   tl::store(c + rows[:, None] * stride_cm + cols[None, :] * stride_cn, acc, mask);
//   tl::store(c_block_ptr, acc, {0, 1});      // made with {stride_cm, stride_cn}
//
// The analyses cannot know that stride_cn is 1 (Triton compiles the kernel again when an
// argument is 1), so each element is its own access: no vectors, no 16-byte runs. Such a store
// becomes
//
//   if (stride_cn == 1) { the store, its pointers computed with 1 } else { the store }
//
// a branch every thread takes the same way, whose first arm the analyses see as contiguous
// along the rows. A store qualifies when a term of its pointer offset (a sum, through
// chained pointer additions) is a tile varying along the last dimension times an integer
// kernel argument, and every op between that argument and the pointers is register
// arithmetic. The argument's integer casts become constants in the copy.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runUnitStrideStores(Kernel &k);

} // namespace tilec
