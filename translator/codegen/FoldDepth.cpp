#include "codegen/FoldDepth.h"

#include <algorithm>
#include <map>

namespace tilec {

void limitFoldDepth(const Kernel &k, std::set<int> &materialized) {
  // Ops are visited in program order, so every operand's depth is known before its users'.
  std::map<int, int> depth; // folded values only, by id
  walk(k, [&](const Op &op) {
    const Value *r = op.result;
    if (!r || materialized.count(r->id) || op.kind == OpKind::Param)
      return;
    int d = 0;
    for (const Value *v : op.operands)
      if (auto it = depth.find(v->id); it != depth.end())
        d = std::max(d, it->second);
    if (d + 1 > kMaxFoldDepth) {
      materialized.insert(r->id);
      return;
    }
    depth[r->id] = d + 1;
  });
}

} // namespace tilec
