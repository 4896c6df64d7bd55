// TransposeLoads: a tl::dot operand stored transposed in memory is loaded along its
// contiguous axis and transposed on the way into the tensor cores.
//
// `w + expand_dims<0>(offs_n) * stride_wn + expand_dims<1>(offs_k)` reads a [BLOCK_K, BLOCK_N]
// tile of a weight stored [N, K]: its elements are contiguous down the columns, so a
// row-major load gets one element per access. When only tl::dot reads the tile (directly, or
// through a trans: an attention backward's Q^T feeds Q K^T and dS^T Q), the load is
// rewritten to read the [BLOCK_N, BLOCK_K] tile (pointers, mask and `other` rebuilt
// transposed: expand_dims swap axes, broadcasts and elementwise ops follow), which is
// contiguous along its rows, followed by a trans that fuse-dot-transpose then folds into the
// dot (the tensor cores read the operand transposed from shared memory); a trans of the tile
// becomes the row-major load itself. The rewrite is kept
// only when axis-info finds the transposed pointers contiguous and the original ones not.
//
//   before:  %50 = addptr %48, %49 : tile<const T*, BLOCK_K, BLOCK_N>   {contig=1 ...}
//            %60:w_tile = load %50, %57, %59 : tile<T, BLOCK_K, BLOCK_N>
//   after:   %75 = addptr %73, %74 : tile<const T*, BLOCK_N, BLOCK_K>   {contig=BLOCK_K ...}
//            %80 = load %75, %78, %59 : tile<T, BLOCK_N, BLOCK_K>
//            %81:w_tile = trans %80 : tile<T, BLOCK_K, BLOCK_N>
#pragma once

#include "ir/IR.h"

namespace tilec {

/// Runs after axis-info (and runs it again when it changes the kernel).
void runTransposeLoads(Kernel &k);

} // namespace tilec
