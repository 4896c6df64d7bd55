#include "transforms/FuseDotTranspose.h"

#include "ir/Rewriter.h"

namespace tilec {

void runFuseDotTranspose(Kernel &k) {
  std::vector<Op *> dead;
  walkOps(k, [&](Op &dot) {
    if (dot.kind != OpKind::Dot)
      return;
    for (int i = 0; i < 2; ++i) {
      Value *v = dot.operands[size_t(i)];
      Op *t = v->def;
      if (!t || t->kind != OpKind::Trans || v->uses != 1)
        continue;
      dot.operands[size_t(i)] = t->operands[0]; // the trans's input takes over its use
      t->operands[0]->uses++;
      v->uses--;
      dot.dotTransposed[size_t(i)] = true;
      dead.push_back(t);
    }
  });
  for (Op *t : dead)
    eraseOp(k, t);
}

} // namespace tilec
