// ZeroAccumulators: a tl::dot whose accumulator is a tile of zeros (`tl::dot(a, b)`, or
// `tl::dot(a, b, tl::zeros(...))`) writes its product instead of adding it (`zero_acc`).
//
//   before:  %z = splat 0.0 ; %s = dot %q, %k_t, %z
//   after:   %z = splat 0.0 ; %s = dot zero_acc %q, %k_t, %z
//
// The CUDA then writes no zeros into the accumulator registers first: on sm_90a each band's
// first wgmma does not add (scale-d = 0), elsewhere the device library zeroes them itself.
// Besides the saved moves, a dot issued without waiting (overlap-dots) is not followed by
// writes to the next dot's accumulators while its wgmmas are in flight, which ptxas would
// answer by waiting for them (warning C7517).
#pragma once

#include "ir/IR.h"

namespace tilec {

void runZeroAccumulators(Kernel &k);

} // namespace tilec
