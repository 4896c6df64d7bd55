#include "transforms/FuseDotTranspose.h"

#include "ir/Rewriter.h"

#include <map>

namespace tilec {

void runFuseDotTranspose(Kernel &k) {
  // A trans is folded when tl::dot operands are all its uses (one dot or several).
  std::map<const Value *, int> dotReads = dotOperandReads(k);
  std::vector<Op *> dead;
  walkOps(k, [&](Op &dot) {
    if (dot.kind != OpKind::Dot)
      return;
    for (int i = 0; i < 2; ++i) {
      Value *v = dot.operands[size_t(i)];
      Op *t = v->def;
      if (!t || t->kind != OpKind::Trans || !t->attrs.empty() || dotReads[v] != v->uses)
        continue;
      dot.operands[size_t(i)] = t->operands[0]; // the trans's input takes over this use
      t->operands[0]->uses++;
      v->uses--;
      dot.dotTransposed[size_t(i)] = true;
      if (v->uses == 0)
        dead.push_back(t);
    }
  });
  for (Op *t : dead)
    eraseOp(k, t);
}

} // namespace tilec
