#include "transforms/LayoutAssignment.h"

namespace tilec {

std::string layoutName(int i) { return "L" + std::to_string(i); }

static SymExpr elemBytes(const ElemType& t) {
  return t.bits() ? SymExpr(t.bits() / 8) : SymExpr::expr(t.sizeofExpr(), true);
}

// The widest run an access through `ptrs` could use: 16 bytes, within a contiguous run.
// (A run as long as the tile needs no bound: a thread's run never exceeds the tile.)
static SymExpr widestRun(const Value* ptrs) {
  SymExpr perVector = SymExpr(16) / elemBytes(ptrs->type.elem);
  if (ptrs->info.contiguity.sameAs(ptrs->type.shape[0]))
    return perVector;
  return symMin(perVector, ptrs->info.contiguity);
}

static int layoutFor(Kernel& k, const std::vector<SymExpr>& shape) {
  for (size_t i = 0; i < k.layouts.size(); ++i)
    if (sameShape(k.layouts[i].shape, shape))
      return int(i);
  k.layouts.push_back(Layout{shape, 1});
  return int(k.layouts.size()) - 1;
}

void runLayoutAssignment(Kernel& k) {
  // One layout per shape, in order of first appearance (deterministic names).
  for (auto& v : k.values)
    if (v->type.isTile())
      v->layout = layoutFor(k, v->type.shape);

  // The widest run a thread should hold: what the widest access of the shape can use.
  std::vector<bool> seen(k.layouts.size(), false);
  walk(k, [&](const Op& cop) {
    const Op* op = &cop;
    if (op->kind != OpKind::Load && op->kind != OpKind::Store)
      return;
    Value* ptrs = op->operands[0];
    if (ptrs->type.isScalar())
      return;
    Layout& l = k.layouts[size_t(ptrs->layout)];
    SymExpr want = widestRun(ptrs);
    l.maxVec = seen[size_t(ptrs->layout)] ? symMax(l.maxVec, want) : want;
    seen[size_t(ptrs->layout)] = true;
  });

  // Access widths, in elements.
  walk(k, [&](const Op& cop) {
    Op* op = const_cast<Op*>(&cop);
    if (op->kind != OpKind::Load && op->kind != OpKind::Store)
      return;
    Value* ptrs = op->operands[0];
    if (ptrs->type.isScalar())
      return;
    SymExpr bytes = elemBytes(ptrs->type.elem);
    SymExpr vec = SymExpr::expr(layoutName(ptrs->layout) + "::VEC", true);
    // VEC is at most the layout's widest run; bound it by this access's own when narrower.
    const Layout& l = k.layouts[size_t(ptrs->layout)];
    SymExpr w = l.maxVec.sameAs(widestRun(ptrs)) ? vec : symMin(vec, widestRun(ptrs));
    w = symMin(w, ptrs->info.divisibility / bytes);
    op->accessWidth = w;
  });
}

} // namespace tilec
