#include "transforms/FoldDotAdds.h"

#include "ir/Rewriter.h"

#include <vector>

namespace tilec {

namespace {

/// Whether `v` is available where `dot` is: a region argument or parameter, a value of an
/// enclosing region, or defined earlier in the dot's region.
bool availableAt(Kernel &k, const Value *v, const Op *dot) {
  if (!v->def)
    return true;
  OpPosition d = locate(k, dot), o = locate(k, v->def);
  if (!o.region)
    return false;
  if (o.region != d.region)
    return true; // an enclosing region's value (a nested region's values do not escape)
  return o.index < d.index;
}

bool foldable(const Type &t) {
  return t.isTile() && !t.pointer && !t.shared &&
         (t.elem == ElemType::known(ScalarKind::F32) || t.elem == ElemType::known(ScalarKind::I32));
}

bool sameType(const Type &a, const Type &b) {
  return a.elem == b.elem && a.pointer == b.pointer && a.shared == b.shared &&
         sameShape(a.shape, b.shape);
}

} // namespace

void runFoldDotAdds(Kernel &k) {
  recountUses(k);
  std::vector<Op *> adds;
  walkOps(k, [&](Op &op) {
    if (op.kind == OpKind::Binary && op.opcode == "+" && op.result)
      adds.push_back(&op);
  });
  for (Op *add : adds) {
    for (int side = 0; side < 2; ++side) {
      Value *prod = add->operands[size_t(side)], *acc = add->operands[size_t(1 - side)];
      Op *dot = prod->def;
      if (!dot || dot->kind != OpKind::Dot || prod->uses != 1 ||
          !isZeroConstant(dot->operands[2]) || !foldable(add->result->type) ||
          !sameType(prod->type, add->result->type) || !sameType(acc->type, add->result->type) ||
          locate(k, dot).region != locate(k, add).region || !availableAt(k, acc, dot))
        continue;
      Value *zero = dot->operands[2];
      setOperand(dot, 2, acc);
      eraseIfDead(k, zero);
      prod->name = add->result->name.empty() ? prod->name : add->result->name;
      replaceAllUses(k, add->result, prod);
      eraseOp(k, add);
      break;
    }
  }
}

} // namespace tilec
