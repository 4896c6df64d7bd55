#include "transforms/FuseDotTranspose.h"

#include <algorithm>

namespace tilec {

namespace {

/// Removes `op` from whichever region of `r` holds it.
bool erase(Region &r, const Op *op) {
  for (auto it = r.ops.begin(); it != r.ops.end(); ++it) {
    if (it->get() == op) {
      r.ops.erase(it);
      return true;
    }
    for (auto &sub : (*it)->regions)
      if (erase(*sub, op))
        return true;
  }
  return false;
}

} // namespace

void runFuseDotTranspose(Kernel &k) {
  std::vector<const Op *> dead;
  walk(k, [&](const Op &cop) {
    if (cop.kind != OpKind::Dot)
      return;
    Op &dot = const_cast<Op &>(cop);
    for (int i = 0; i < 2; ++i) {
      Value *v = dot.operands[size_t(i)];
      Op *t = v->def;
      if (!t || t->kind != OpKind::Trans || v->uses != 1)
        continue;
      dot.operands[size_t(i)] = t->operands[0]; // the trans's input takes over its use
      dot.dotTransposed[size_t(i)] = true;
      v->uses = 0;
      dead.push_back(t);
    }
  });
  for (const Op *t : dead)
    erase(k.body, t);
}

} // namespace tilec
