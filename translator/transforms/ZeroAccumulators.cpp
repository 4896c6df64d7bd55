#include "transforms/ZeroAccumulators.h"

#include "ir/Rewriter.h"

namespace tilec {

void runZeroAccumulators(Kernel &k) {
  walkOps(k, [](Op &op) {
    if (op.kind == OpKind::Dot && isZeroConstant(op.operands[2]))
      op.dotZeroAcc = true;
  });
}

} // namespace tilec
