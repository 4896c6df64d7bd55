#include "transforms/AllocateSharedMemory.h"

#include "ir/Rewriter.h"

#include <algorithm>

namespace tilec {

SymExpr sharedBytes(const Type &t) {
  SymExpr bytes = SymExpr::expr(t.elem.sizeofExpr(), true);
  for (auto it = t.shape.rbegin(); it != t.shape.rend(); ++it)
    bytes = *it * bytes;
  return bytes;
}

SymExpr roundUp1024(const SymExpr &bytes) {
  if (bytes.isConst())
    return SymExpr((bytes.value() + 1023) / 1024 * 1024);
  return SymExpr::expr("(" + bytes.operand() + " + 1023) / 1024 * 1024", false);
}

namespace {

/// The larger of two byte counts, as host and device C++ alike.
SymExpr larger(const SymExpr &a, const SymExpr &b) {
  if (a.sameAs(b))
    return a;
  if (a.isConst() && b.isConst())
    return std::max(a.value(), b.value());
  return SymExpr::expr("(" + a.operand() + " > " + b.operand() + " ? " + a.operand() + " : " +
                           b.operand() + ")",
                       true);
}

} // namespace

void runAllocateSharedMemory(Kernel &k) {
  // Rings: each run of consecutive smem_ring and smem_buffer ops (one pipelined loop's)
  // starts at 0.
  std::vector<SymExpr> runs; // the bytes of each run
  std::function<void(Region &)> rings = [&](Region &r) {
    bool inRun = false;
    for (auto &op : r.ops) {
      for (auto &sub : op->regions)
        rings(*sub);
      if (op->kind != OpKind::SmemRing && op->kind != OpKind::SmemBuffer) {
        inRun = false;
        continue;
      }
      if (!inRun)
        runs.push_back(0);
      inRun = true;
      op->attrs = {runs.back()};
      runs.back() = runs.back() + sharedBytes(op->result->type);
    }
  };
  rings(k.body);
  SymExpr total = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    bool seen = std::any_of(runs.begin(), runs.begin() + long(i),
                            [&](const SymExpr &r) { return r.sameAs(runs[i]); });
    if (!seen) // loops with rings of the same sizes need no larger-of-equals
      total = total.isConst(0) ? runs[i] : larger(total, runs[i]);
  }
  walkOps(k, [&](Op &op) {
    if (op.kind != OpKind::LocalAlloc)
      return;
    SymExpr offset = total.isConst(0) ? SymExpr(0) : roundUp1024(total);
    op.attrs = {offset};
    total = offset + sharedBytes(op.result->type);
  });
  k.dynamicSmemBytes = total;
}

} // namespace tilec
