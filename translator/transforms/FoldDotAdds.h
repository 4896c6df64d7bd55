// FoldDotAdds: `acc += tl::dot(a, b)` (a product with a zero accumulator, added to a tile of
// its type) becomes `acc = tl::dot(a, b, acc)`, as Triton's combiner folds it: the tensor cores
// add the product into the accumulator's registers, so that the loop carries one accumulator
// and the pipeline sees a dot loop of the usual form.
//
//   before:  %z = splat 0.0 ; %d = dot %a, %b, %z ; %acc2 = binary "+" %acc, %d
//   after:   %acc2 = dot %a, %b, %acc
//
// Only float and int32 accumulators (a 16-bit out_dtype rounds the product first); the dot's
// result read by the add alone; the other operand defined before the dot. The sum is then
// rounded once, where it was rounded twice (the product, then the sum): the interpreter
// computes tl::dot(a, b, acc) as acc plus the products, as the tensor cores do.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runFoldDotAdds(Kernel &k);

} // namespace tilec
