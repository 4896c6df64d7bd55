// TmaCopies: on targets with the copy engine (TMA, sm_90 and newer), a pipelined loop's async
// copies of whole boxes of a row-major matrix become copies from a tensor map.
//
// A copy qualifies when its pointers are `base + (r0 + arange(R)) * stride + (c0 + arange(C))`
// (base a kernel argument, stride a kernel argument or constant, r0 and c0 scalars) and its
// mask is exactly the box's intersection with the matrix, `0 <= row < ROWS && 0 <= col < COLS`
// (ROWS and COLS kernel arguments or constants): what tensor descriptors' loads lower to, and
// what a pointer tile written that way is. TMA fills the part outside with zeros, as the
// masked copy would.
//
//   before:  for %stage ... { if (...) { async_copy %v, %ptrs, %mask } ; async_commit }
//            for %k ... (..., %read_stage) { async_wait ; barrier ; if (...) { async_copy ...}
//              ... stage_view %ring, %read_stage ... }
//            async_wait [0] ; barrier
//   after:   tma_map %base, %ROWS, %COLS, %stride [R] [C]          (after the params)
//            %bars = mbarrier_ring : smem<int64_t, STAGES>
//            for %stage ... { if (...) { tma_copy %v, %ptrs, %mask, %bars, %stage, %r0, %c0 [0]
//                                        mbarrier_arrive %bars, %stage } ; async_commit }
//            for %k ... (..., %read_stage, %phase = 0) {
//              async_wait ; mbarrier_wait %bars, %read_stage, %phase ; barrier ; ...
//              yield ..., (wraps ? %phase ^ 1 : %phase) }
//            async_wait [0] ; barrier ; mbarrier_inval %bars
//
// The decision stops at the kernel's run time twice: the launcher uses a map only when it can
// encode it (alignment, extents, a GPU with TMA), and a stage only when its layout is one TMA
// writes (tma_tile_ok); otherwise the tma_copy runs as the async copy it replaced.
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

namespace tilec {

void runTmaCopies(Kernel &k, const Target &target);

/// For tma-stores: when `store` (a Store of a rank-2 tile, masked) writes exactly one box of
/// a row-major matrix, in the form a copy qualifies in above (but with any start: the caller
/// checks at run time that the box starts at or after (0, 0)), adds a tensor map for it after
/// the kernel's maps and returns its index, with the box's first row and column in row0 and
/// col0 (null: 0). Otherwise -1, and nothing changes.
int tmaStoreMap(Kernel &k, const Op &store, Value *&row0, Value *&col0);

} // namespace tilec
