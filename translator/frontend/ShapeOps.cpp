// tl:: shape operations -> tile IR: expand_dims, broadcast_to, trans / permute, reshape, join
// (split, which returns a pair, is in PairOps.cpp).
//
//   tl::expand_dims<1>(rows)     %7 = expand_dims %5:rows [1] : tile<int, BM, 1>
//   tl::trans(v)                 %9:t = trans %8:v : tile<float, BN, BM>
//   tl::permute<2, 0, 1>(w)      %11 = trans %10:w [2] [0] [1] : tile<float, C, A, B>
//   tl::reshape<BM * BN>(v)      %10 = reshape %8:v : tile<float, BM * BN>
#include "frontend/Lowerer.h"

namespace tilec {

using namespace clang;

bool Lowerer::isShapeOpName(const std::string &n) {
  return n == "expand_dims" || n == "trans" || n == "permute" || n == "reshape" ||
         n == "broadcast_to" || n == "join" || n == "interleave" || n == "cat" || n == "ravel";
}

/// tl::join(a, b): a new last axis of size 2 holding a then b, written with the operations the
/// translator already has: where(arange<0, 2>() == 0, a[..., None], b[..., None]). Rank-2
/// operands give a rank-3 tile; the select keeps the values exactly.
Value *Lowerer::lowerJoin(const CallExpr *call, Value *a, Value *b) {
  if (a->type.pointer != b->type.pointer || !(a->type.elem == b->type.elem)) {
    error(call, "tl::join needs operands of the same element type (cast one first)");
    return nullptr;
  }
  // A scalar joins a tile as a tile of its shape.
  if (a->type.isScalar() && b->type.isTile())
    a = emit(OpKind::Splat, {a}, Type{a->type.elem, a->type.pointer, a->type.pointeeConst,
                                      b->type.shape}, call)->result;
  if (b->type.isScalar() && a->type.isTile())
    b = emit(OpKind::Splat, {b}, Type{b->type.elem, b->type.pointer, b->type.pointeeConst,
                                      a->type.shape}, call)->result;
  if (!broadcastPair(a, b, call))
    return nullptr;
  if (a->type.shape.size() > 2) {
    error(call, "tl::join of rank-3 tiles would make a rank-4 tile; tiles have rank 1 to 3");
    return nullptr;
  }
  Type lane{ElemType::known(ScalarKind::I32), false, false, {SymExpr(2)}};
  Op *ar = emit(OpKind::Arange, {}, lane, call);
  ar->attrs = {SymExpr(0), SymExpr(2)};
  Value *first = binary("==", ar->result, constant(0, ElemType::known(ScalarKind::I32), call), call);
  if (!first)
    return nullptr;
  auto expand = [&](Value *v, int axis) {
    Type t = v->type;
    t.shape.insert(t.shape.begin() + axis, SymExpr(1));
    Op *op = emit(OpKind::ExpandDims, {v}, t, call);
    op->attrs = {SymExpr(axis)};
    return op->result;
  };
  if (a->type.isTile()) {
    size_t rank = a->type.shape.size();
    for (size_t d = 0; d < rank; ++d)
      first = expand(first, 0); // [1, 2] or [1, 1, 2]
    a = expand(a, int(rank));   // [N, 1] or [M, N, 1]
    b = expand(b, int(rank));
    if (!broadcastPair(first, a, call) || !broadcastPair(first, b, call))
      return nullptr;
  }
  Type t = first->type;
  t.elem = a->type.elem;
  t.pointer = a->type.pointer;
  t.pointeeConst = a->type.pointeeConst;
  return emit(OpKind::Select, {first, a, b}, t, call)->result;
}

/// tl::permute<P0, P1, P2>(t) / tl::trans<P0, P1, P2>(t) of a rank-3 tile: result axis i is
/// axis P[i] of t. A Trans op whose attributes are the permutation (a rank-2 Trans has none).
Value *Lowerer::lowerPermute3(const CallExpr *call, const Callee &c, Value *v) {
  const std::string &n = c.name;
  if (c.templateArgs.empty()) {
    error(call, n == "trans" ? "tl::trans without axes needs a rank-2 tile; write "
                               "tl::trans<...>(t) or tl::permute<...>(t)"
                             : "tl::permute needs the axes, e.g. tl::permute<2, 0, 1>(t)");
    return nullptr;
  }
  std::vector<int> perm;
  for (auto &a : c.templateArgs) {
    auto p = templateArgSym(a);
    if (!p)
      return nullptr;
    if (!p->isConst() || p->value() < 0 || p->value() > 2)
      break;
    perm.push_back(int(p->value()));
  }
  int seen = 0;
  for (int p : perm)
    seen |= 1 << p;
  if (perm.size() != 3 || c.templateArgs.size() != 3 || seen != 7) {
    error(call, "tl::" + n + " of a rank-3 tile takes a permutation of the axes 0, 1, 2");
    return nullptr;
  }
  if (perm[0] == 0 && perm[1] == 1 && perm[2] == 2)
    return v; // the identity moves nothing
  Type t = v->type;
  for (size_t i = 0; i < 3; ++i)
    t.shape[i] = v->type.shape[size_t(perm[i])];
  Op *op = emit(OpKind::Trans, {v}, t, call);
  op->attrs = {SymExpr(perm[0]), SymExpr(perm[1]), SymExpr(perm[2])};
  return op->result;
}

Value *Lowerer::lowerShapeOp(const CallExpr *call, const Callee &c) {
  const std::string &n = c.name;
  auto arg = [&](unsigned i) { return lowerExpr(call->getArg(i)); };
  auto want = [&](unsigned count) { return wantArgs(call, c, count, count); };
  auto wantTemplateArgs = [&](size_t count) { return wantTemplateArgCount(call, c, count); };
  if (n == "join") {
    if (!want(2))
      return nullptr;
    Value *a = arg(0);
    Value *b = a ? arg(1) : nullptr;
    return a && b ? lowerJoin(call, a, b) : nullptr;
  }
  // interleave and cat: join, then the last two axes merged (cat, whose order Triton leaves
  // unspecified, is the interleaving of rank-1 tiles); ravel: one axis.
  if (n == "interleave" || n == "cat") {
    if (!want(2))
      return nullptr;
    Value *a = arg(0);
    Value *b = a ? arg(1) : nullptr;
    if (!a || !b)
      return nullptr;
    if (a->type.isScalar() || b->type.isScalar() || !sameShape(a->type.shape, b->type.shape)) {
      error(call, "tl::" + n + " takes two tiles of the same shape");
      return nullptr;
    }
    if (n == "cat" && a->type.shape.size() != 1) {
      error(call, "tl::cat is translated for rank-1 tiles; for rank-2 ones write two stores, or "
                  "tl::join and index the new axis");
      return nullptr;
    }
    if (a->type.shape.size() > 2) {
      error(call, "tl::interleave takes rank-1 or rank-2 tiles");
      return nullptr;
    }
    Value *j = lowerJoin(call, a, b);
    if (!j)
      return nullptr;
    Type t = a->type;
    t.shape.back() = SymExpr(2) * t.shape.back();
    return emit(OpKind::Reshape, {j}, t, call)->result;
  }
  if (n == "ravel") {
    if (!want(1))
      return nullptr;
    Value *v = arg(0);
    if (!v)
      return nullptr;
    if (v->type.isScalar()) {
      error(call, "tl::ravel takes a tile");
      return nullptr;
    }
    if (v->type.shape.size() == 1)
      return v;
    Type t = v->type;
    SymExpr all = t.shape[0];
    for (size_t i = 1; i < t.shape.size(); ++i)
      all = all * t.shape[i];
    t.shape = {all};
    return emit(OpKind::Reshape, {v}, t, call)->result;
  }
  if (n == "expand_dims") {
    if (!want(1) || !wantTemplateArgs(1))
      return nullptr;
    auto axis = templateArgSym(c.templateArgs[0]);
    Value *v = arg(0);
    if (!axis || !v)
      return nullptr;
    size_t rank = v->type.shape.size();
    if (axis->isConst() && axis->value() < 0 && axis->value() >= -int64_t(rank) - 1)
      axis = SymExpr(axis->value() + int64_t(rank) + 1); // -1 appends, as in Triton
    if (rank != 1 && rank != 2) {
      error(call, "tl::expand_dims needs a rank-1 or rank-2 tile (tiles have rank 1 to 3)");
      return nullptr;
    }
    if (!axis->isConst() || axis->value() < 0 || axis->value() > int64_t(rank)) {
      error(call, rank == 1 ? "tl::expand_dims: the axis must be 0 or 1"
                            : "tl::expand_dims: the axis must be 0, 1 or 2");
      return nullptr;
    }
    Type t = v->type;
    t.shape.insert(t.shape.begin() + axis->value(), SymExpr(1));
    Op *op = emit(OpKind::ExpandDims, {v}, t, call);
    op->attrs = {*axis};
    return op->result;
  }
  if (n == "trans" || n == "permute") {
    if (!want(1))
      return nullptr;
    Value *v = arg(0);
    if (!v)
      return nullptr;
    if (v->type.shape.size() == 3)
      return lowerPermute3(call, c, v);
    if (v->type.shape.size() != 2) {
      error(call, "tl::" + n + " is translated for rank-2 and rank-3 tiles only yet");
      return nullptr;
    }
    // The only permutation of two axes that moves anything is (1, 0).
    if (!c.templateArgs.empty()) {
      auto a0 = templateArgSym(c.templateArgs[0]);
      auto a1 = c.templateArgs.size() > 1 ? templateArgSym(c.templateArgs[1]) : std::nullopt;
      if (!a0 || !a1 || c.templateArgs.size() != 2 || !a0->isConst() || !a1->isConst()) {
        if (!failed_)
          error(call, "tl::" + n + " of a rank-2 tile takes the axes <1, 0> or <0, 1>");
        return nullptr;
      }
      if (a0->value() == 0 && a1->value() == 1)
        return v;
      if (!(a0->value() == 1 && a1->value() == 0)) {
        error(call, "tl::" + n + " of a rank-2 tile takes the axes <1, 0> or <0, 1>");
        return nullptr;
      }
    } else if (n == "permute") {
      error(call, "tl::permute needs the axes, e.g. tl::permute<1, 0>(t)");
      return nullptr;
    }
    Type t = v->type;
    std::swap(t.shape[0], t.shape[1]);
    return emit(OpKind::Trans, {v}, t, call)->result;
  }
  if (n == "reshape") {
    if (!want(1) || c.templateArgs.empty())
      return nullptr;
    Type t;
    Value *v = arg(0);
    if (!v)
      return nullptr;
    t = v->type;
    t.shape.clear();
    for (auto &a : c.templateArgs) {
      auto d = templateArgSym(a);
      if (!d)
        return nullptr;
      t.shape.push_back(*d);
    }
    if (v->type.isScalar() || t.shape.size() > 3) {
      error(call, "tl::reshape is translated between tiles of rank 1 to 3 only");
      return nullptr;
    }
    SymExpr from = v->type.shape[0], to = t.shape[0];
    for (size_t i = 1; i < v->type.shape.size(); ++i)
      from = from * v->type.shape[i];
    for (size_t i = 1; i < t.shape.size(); ++i)
      to = to * t.shape[i];
    if (from.isConst() && to.isConst() && from.value() != to.value()) {
      error(call, "tl::reshape from " + v->type.shapeStr() + " to " + t.shapeStr() +
                      " changes the number of elements");
      return nullptr;
    }
    if (sameShape(v->type.shape, t.shape))
      return v;
    return emit(OpKind::Reshape, {v}, t, call)->result;
  }
  if (n == "broadcast_to") {
    if (!want(1) || c.templateArgs.empty())
      return nullptr;
    std::vector<SymExpr> shape;
    for (auto &a : c.templateArgs) {
      auto d = templateArgSym(a);
      if (!d)
        return nullptr;
      shape.push_back(*d);
    }
    Value *v = arg(0);
    if (!v)
      return nullptr;
    if (v->type.isScalar()) {
      Type t = v->type;
      t.shape = shape;
      return emit(OpKind::Splat, {v}, t, call)->result;
    }
    return broadcastTo(v, shape, call);
  }
  return nullptr;
}

} // namespace tilec
