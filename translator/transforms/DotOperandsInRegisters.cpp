#include "transforms/DotOperandsInRegisters.h"

#include "ir/Rewriter.h"

namespace tilec {

void runDotOperandsInRegisters(Kernel &k) {
  walkOps(k, [&](Op &dot) {
    if (dot.kind != OpKind::Dot || dot.dotTransposed[0])
      return;
    const Value *a = dot.operands[0], *b = dot.operands[1];
    bool aInMmaLayout = a->type.isTile() && !a->type.shared && a->layout >= 0 &&
                        k.layouts[size_t(a->layout)].kind == Layout::Kind::Mma;
    bool bInSharedMemory = b->type.shared || (b->def && b->def->asyncCopy);
    dot.dotRegistersA = aInMmaLayout && bInSharedMemory;
  });
}

} // namespace tilec
