// TransposeTiles: a kernel whose rank-2 tiles are contiguous in memory down their columns
// holds every rank-2 tile transposed, so that its accesses run along the rows of the tiles,
// as the blocked layouts lay threads out.
//
// FlagGems' weight_norm_kernel_last keeps a norm per column of v [M, N]: its tile is
// [BLOCK_COL, BLOCK_ROW], built as `v + expand_dims<0>(rows) * N + expand_dims<1>(cols)`, and
// consecutive addresses run down the tile's first axis. Row-major, each warp read 32 rows of
// one column, N elements apart. Here every rank-2 value of the kernel trades its two axes:
// expand_dims inserts its 1 on the other side, reductions and scans take the other axis,
// loads, stores, broadcasts and elementwise ops follow their operands. Rank-1 tiles and
// scalars, the kernel's only way in and out of rank 2, are unchanged, so nothing is converted
// and the kernel computes the same elements; a whole-tile sum adds them in another order.
//
//   before:  %8:tx = expand_dims %7 [1] : tile<int, BLOCK_COL, 1>
//            %19:ty = expand_dims %18 [0] : tile<int, 1, BLOCK_ROW>
//            %40 = load %35, %30 : tile<T, BLOCK_COL, BLOCK_ROW>       {contig=1}
//            %45 = reduce "sum" %41 [1] : tile<float, BLOCK_COL>
//   after:   %8:tx = expand_dims %7 [0] : tile<int, 1, BLOCK_COL>
//            %19:ty = expand_dims %18 [1] : tile<int, BLOCK_ROW, 1>
//            %40 = load %35, %30 : tile<T, BLOCK_ROW, BLOCK_COL>       {contig=BLOCK_COL}
//            %45 = reduce "sum" %41 [0] : tile<float, BLOCK_COL>
//
// Kept only when more of the kernel's rank-2 loads, stores and atomics are contiguous along
// their rows afterwards than before (axis-info decides, for every value of the template
// parameters), and only for kernels whose rank-2 tiles all come from rank-1 tiles and scalars
// through the ops above: a tl::dot, trans, reshape, gather, sort, flip, rank-3 tile, hint,
// whole-tile arg reduction or printed tile keeps the kernel as written. Runs before
// unit-stride-accesses, which then sees the accesses as they will be made.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runTransposeTiles(Kernel &k);

} // namespace tilec
