// AllocateSharedMemory: where each stage ring, smem_buffer and local_alloc buffer lives in
// dynamic shared memory (its op's attr[0], in bytes) and how many bytes the kernel needs
// (Kernel::dynamicSmemBytes).
//
// The rings of one pipelined loop are in use from its prologue to its drain, and loops run
// one after another: the rings of every loop start at 0, next to each other, and the kernel
// needs the largest of those sets. A local_alloc buffer is read by a loop, possibly one with
// rings, so the buffers come after every set of rings. Each buffer after the first starts at
// a multiple of 1024 bytes, where the tensor cores' swizzled tiles must start.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runAllocateSharedMemory(Kernel &k);

/// Bytes of one smem<...> value: a ring (all its stages) or a tile.
SymExpr sharedBytes(const Type &t);

/// `bytes` rounded up to a multiple of 1024: where a buffer after others starts.
SymExpr roundUp1024(const SymExpr &bytes);

} // namespace tilec
