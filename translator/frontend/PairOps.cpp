// Calls that return a pair (tl::swizzle2d, tl::split) -> two values, and the ways a kernel
// takes the pair apart: `auto [i, j] = ...` (StmtLowering.cpp), `auto p = ...` then
// `p.first`, `p.second`. The IR has no pair type: each half is an ordinary value from then on.
#include "frontend/Lowerer.h"

namespace tilec {

using namespace clang;

const Expr *skipTemporaries(const Expr *e) {
  while (true) {
    if (auto *fe = dyn_cast<FullExpr>(e))
      e = fe->getSubExpr();
    else if (auto *mt = dyn_cast<MaterializeTemporaryExpr>(e))
      e = mt->getSubExpr();
    else if (auto *bt = dyn_cast<CXXBindTemporaryExpr>(e))
      e = bt->getSubExpr();
    else if (auto *ce = dyn_cast<CXXConstructExpr>(e);
             ce && ce->getNumArgs() == 1 && ce->getConstructor()->isCopyOrMoveConstructor())
      e = ce->getArg(0);
    else if (auto *ic = dyn_cast<ImplicitCastExpr>(e); ic && ic->getCastKind() == CK_NoOp)
      e = ic->getSubExpr();
    else if (auto *p = dyn_cast<ParenExpr>(e))
      e = p->getSubExpr();
    else
      return e;
  }
}

std::optional<Lowerer::ValuePair> Lowerer::lowerPair(const Expr *e) {
  e = skipTemporaries(e);
  if (auto *ref = dyn_cast<DeclRefExpr>(e))
    if (auto it = pairs_.find(ref->getDecl()); it != pairs_.end())
      return it->second;
  auto *call = dyn_cast<CallExpr>(e);
  if (!call)
    return std::nullopt;
  Callee c = resolveCallee(call->getCallee());
  if (!c.inTl || (c.name != "swizzle2d" && c.name != "split"))
    return std::nullopt;
  return c.name == "split" ? lowerSplit(call, c) : lowerSwizzle2d(call, c);
}

Value *Lowerer::lowerPairMember(const Expr *base, const std::string &member, const Expr *at) {
  auto pair = base ? lowerPair(base) : std::nullopt;
  if (!pair) {
    error(at, "member access '." + member + "' is not supported in kernels");
    return nullptr;
  }
  if (member != "first" && member != "second") {
    error(at, "a pair has the members .first and .second");
    return nullptr;
  }
  return (*pair)[member == "first" ? 0 : 1];
}

// tl::split(t): the elements at index 0 and 1 of t's last axis (of size 2), each as a
// reduction of that axis whose combine keeps its first ("first") or its second ("last")
// operand. The device library folds such reductions in index order, so the halves are the
// exact elements (no arithmetic: -0.0 and NaN payloads survive).
//
//   auto [lo, hi] = tl::split(t)    %7:lo = reduce "first" %6:t [2] : tile<float, M, N>
//                                   %8:hi = reduce "last" %6:t [2] : tile<float, M, N>
Lowerer::ValuePair Lowerer::lowerSplit(const CallExpr *call, const Callee &c) {
  if (!wantArgs(call, c, 1, 1))
    return {nullptr, nullptr};
  Value *t = lowerExpr(call->getArg(0));
  if (!t)
    return {nullptr, nullptr};
  const auto &shape = t->type.shape;
  if (t->type.isScalar() || !shape.back().isConst(2)) {
    error(call->getArg(0), "tl::split needs a tile whose last dimension is 2");
    return {nullptr, nullptr};
  }
  if (t->type.pointer) {
    error(call->getArg(0), "tl::split of a tile of pointers is not translated yet");
    return {nullptr, nullptr};
  }
  for (size_t d = 0; d + 1 < shape.size(); ++d)
    if (shape[d].isConst(1)) {
      error(call->getArg(0), "tl::split of a " + t->type.shapeStr() +
                                 " tile is not translated yet; split before tl::expand_dims");
      return {nullptr, nullptr};
    }
  int axis = int(shape.size()) - 1;
  Type half = t->type;
  half.shape.pop_back();
  ValuePair out;
  for (int k = 0; k < 2; ++k) {
    Op *op = emit(OpKind::Reduce, {t}, half, call);
    op->opcode = k == 0 ? "first" : "last";
    op->attrs = {SymExpr(axis)};
    out[size_t(k)] = op->result;
  }
  return out;
}

// Triton's tl.swizzle2d, written out as scalar arithmetic so that the generated CUDA shows
// what it computes; the intermediate values are named after their meaning.
Lowerer::ValuePair Lowerer::lowerSwizzle2d(const CallExpr *call, const Callee &c) {
  if (!wantArgs(call, c, 5, 5))
    return {nullptr, nullptr};
  Value *args[5];
  ElemType t;
  for (unsigned k = 0; k < 5; ++k) {
    args[k] = lowerExpr(call->getArg(k));
    if (!args[k])
      return {nullptr, nullptr};
    const Type &at = args[k]->type;
    if (at.isTile() || at.pointer || (at.elem.isKnown() && !at.elem.isInteger())) {
      error(call->getArg(k),
            "tl::swizzle2d takes integer scalars (program indices and grid sizes)");
      return {nullptr, nullptr};
    }
    t = k == 0 ? promoteScalars(at.elem, at.elem) : promoteScalars(t, at.elem);
  }
  // Everything computes in the arguments' common type, as the interpreter does.
  std::vector<Value *> steps; // what the call adds, in order
  for (Value *&a : args) {
    Value *converted = castTo(a, t, call);
    if (converted != a && converted && converted->def->kind == OpKind::Cast)
      steps.push_back(converted);
    a = converted;
  }
  Value *i = args[0], *j = args[1], *size_i = args[2], *size_j = args[3], *size_g = args[4];
  auto step = [&](const char *opcode, Value *a, Value *b, const char *name = nullptr) {
    Value *v = binary(opcode, a, b, call);
    if (v) {
      steps.push_back(v);
      if (name)
        v->name = name;
    }
    return v;
  };
  Value *ij = step("+", step("*", i, size_j), j, "swizzle_ij");   // row-major number of (i, j)
  Value *group = step("*", size_g, size_j, "swizzle_group_size"); // programs in a whole group
  Value *firstRow = step("*", step("/", ij, group), size_g, "swizzle_first_row");
  Value *rows = step("minimum", step("-", size_i, firstRow), size_g, "swizzle_rows");
  Value *inGroup = step("%", ij, group, "swizzle_in_group");
  Value *newI = step("+", firstRow, step("%", inGroup, rows));
  Value *newJ = step("/", inGroup, rows);
  if (!newI || !newJ)
    return {nullptr, nullptr};
  // One comment for the whole call in the CUDA, above its first line: the first value that
  // gets a variable (named or used twice; others fold into their user's expression).
  bool commented = false;
  for (Value *v : steps) {
    if (!commented && (!v->name.empty() || v->uses > 1))
      commented = true;
    else
      v->def->srcText.clear();
  }
  return {newI, newJ};
}

} // namespace tilec
