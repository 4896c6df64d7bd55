// TmaStores: on sm_90a, in a kernel with a producer warpgroup (warp-specialize), the store of a
// tl::dot result that writes one box of a row-major matrix goes through the copy engine.
//
// A store qualifies when its value is in the tensor cores' layout (quad_runs), its pointers
// and mask are those a tensor map describes (`base + (r0 + arange) * stride + (c0 + arange)`,
// masked by the matrix's bounds, as tma-copies matches loads), and no access to global memory
// follows it in the program (the copy completes in the background).
//
//   before:  store quad_runs %ptrs, %v, %mask
//   after:   tma_map %base, %ROWS, %COLS, %stride [R] [C]             (after the kernel's maps)
//            %buf = smem_buffer [offset] : smem<T, R, C>
//            tma_store quad_runs %ptrs, %v, %mask, %buf, %r0, %c0 [map]
//            ... (the rest of the program; in a persistent kernel, its next programs)
//            tma_store_drain                                          (at the kernel's top level)
//
// The threads write the tile into %buf (a buffer of its own after the rest of dynamic shared
// memory, so the producer may fill the next program's stages meanwhile), one thread issues the
// copy, and the consumers go on to the next program's loop while it drains; the next store
// first waits until the engine has read %buf. The launcher uses the map only when it can
// encode it, and the box only when it starts at or after (0, 0); otherwise the store runs as
// written.
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

namespace tilec {

void runTmaStores(Kernel &k, const Target &target);

} // namespace tilec
