// Tensor descriptors (tilec/tl/descriptor.h): `auto d = tl::make_tensor_descriptor<B0, B1>(
// base, {M, K}, {stride, 1})`, then `d.load({m0, k0})` and `d.store({m0, n0}, t)`.
//
// The IR has no descriptor type. The descriptor's parts are lowered once, where it is made,
// and each box access becomes what a kernel would write by hand: index tiles offset by the
// box's corner, a pointer tile, and a mask that keeps the box inside the tensor:
//
//   d.load({m0, k0})    rows = m0 + arange<0, B0>   cols = k0 + arange<0, B1>
//                       load(base + rows[:, None] * stride + cols[None, :],
//                            (rows >= 0 & rows < M)[:, None] & (cols >= 0 & cols < K)[None, :], 0)
//
// so the analyses see unit-stride rows (the last stride must be the literal 1) and uniform
// masks, and the layout and pipelining passes treat the box like any pointer tile. Rows are
// addressed in 64-bit (row * stride passes 2^31 on large tensors, as the interpreter allows).
#include "frontend/Lowerer.h"

#include <algorithm>

namespace tilec {

using namespace clang;

std::optional<std::vector<const Expr *>> bracedElements(const Expr *e) {
  e = skipTemporaries(e);
  auto *list = dyn_cast<InitListExpr>(e);
  if (!list)
    return std::nullopt;
  // std::array<int64_t, N>{a, b} is {{a, b}} in clang's semantic form.
  while (list->getNumInits() == 1 && isa<InitListExpr>(list->getInit(0)->IgnoreImplicit()) &&
         !list->getType().isNull() && list->getType()->isRecordType())
    list = cast<InitListExpr>(list->getInit(0)->IgnoreImplicit());
  std::vector<const Expr *> out;
  for (const Expr *init : list->inits()) {
    // Keep the value's own type (an int stays int): strip only the conversions to int64_t.
    const Expr *x = init;
    while (auto *ic = dyn_cast<ImplicitCastExpr>(x)) {
      if (ic->getCastKind() != CK_IntegralCast && ic->getCastKind() != CK_NoOp)
        break;
      x = ic->getSubExpr();
    }
    out.push_back(x);
  }
  return out;
}

namespace {

/// The DeclRefExpr's declaration when `e` names a local variable.
const ValueDecl *namedLocal(const Expr *e) {
  if (auto *ref = dyn_cast<DeclRefExpr>(skipTemporaries(e)->IgnoreParenImpCasts()))
    return ref->getDecl();
  return nullptr;
}

} // namespace

bool Lowerer::bindDescriptor(const VarDecl *vd) {
  auto *call = dyn_cast<CallExpr>(skipTemporaries(vd->getInit()));
  if (!call)
    return false;
  Callee c = resolveCallee(call->getCallee());
  if (!c.inTl || c.name != "make_tensor_descriptor")
    return false;
  Descriptor &d = descriptors_[vd]; // null base until it is complete: uses stay quiet
  const std::string how = "tl::make_tensor_descriptor<BLOCK_M, BLOCK_N>(base, {M, N}, "
                          "{stride_m, 1})";
  if (c.templateArgs.empty() || c.templateArgs.size() > 3) {
    error(call, "a tensor descriptor's box shape is 1 to 3 template arguments: " + how);
    return true;
  }
  if (!wantArgs(call, c, 3, 3))
    return true;
  std::vector<SymExpr> block;
  for (auto &ta : c.templateArgs) {
    auto b = templateArgSym(ta);
    if (!b)
      return true;
    block.push_back(*b);
  }
  const size_t rank = block.size();
  Value *base = lowerExpr(call->getArg(0));
  if (!base)
    return true;
  if (!base->type.pointer || base->type.isTile()) {
    error(call->getArg(0), "a tensor descriptor's base is a pointer: " + how);
    return true;
  }
  std::vector<Value *> parts[2];
  const char *what[2] = {"shape", "strides"};
  const Expr *lastStride = nullptr;
  for (int p = 0; p < 2; ++p) {
    auto elems = bracedElements(call->getArg(1 + unsigned(p)));
    if (!elems || elems->size() != rank) {
      error(call->getArg(1 + unsigned(p)),
            std::string("a tensor descriptor's ") + what[p] + " is a braced list of " +
                std::to_string(rank) + " integers, one per dimension of its box: " + how);
      return true;
    }
    for (const Expr *x : *elems) {
      Value *v = lowerExpr(x);
      if (!v)
        return true;
      if (v->type.isTile() || v->type.pointer || !v->type.elem.isInteger()) {
        error(x, std::string("a tensor descriptor's ") + what[p] + " are integers");
        return true;
      }
      parts[p].push_back(v);
      lastStride = x;
    }
  }
  // The last dimension is contiguous: the copy engine requires it, and the rows' elements
  // are then adjacent for vector accesses.
  if (auto s = evalSym(lastStride); !s || !s->isConst(1)) {
    error(lastStride, "the last stride of a tensor descriptor must be the literal 1 (its last "
                "dimension contiguous, as Hopper's copy engine requires); for a tensor stored "
                "transposed, describe it with its dimensions swapped and tl::trans the box");
    return true;
  }
  d.base = base;
  d.shape = parts[0];
  d.strides = parts[1];
  d.block = block;
  return true;
}

std::optional<Value *> Lowerer::lowerDescriptorCall(const Expr *object, const std::string &member,
                                                    const CallExpr *call) {
  const ValueDecl *decl = object ? namedLocal(object) : nullptr;
  auto it = decl ? descriptors_.find(decl) : descriptors_.end();
  if (it == descriptors_.end())
    return std::nullopt;
  const Descriptor &d = it->second;
  const std::string descName = decl->getNameAsString();
  if (!d.base) // reported where it was made
    return nullptr;
  const size_t rank = d.block.size();
  unsigned nargs = givenArgs(call);
  if (member != "load" && member != "store") {
    error(call, "a tensor descriptor has .load({offsets}) and .store({offsets}, tile), not ." +
                    member);
    return nullptr;
  }
  const bool load = member == "load";
  if (nargs != (load ? 1u : 2u)) {
    error(call, load ? "descriptor.load takes the box's offsets: d.load({m0, n0})"
                     : "descriptor.store takes the box's offsets and a tile: d.store({m0, n0}, t)");
    return nullptr;
  }
  auto offs = bracedElements(call->getArg(0));
  if (!offs || offs->size() != rank) {
    static const char *const corners[3] = {"{i0}", "{m0, n0}", "{i0, i1, i2}"};
    error(call->getArg(0), "the box's offsets are a braced list of " + std::to_string(rank) +
                               (rank == 1 ? " integer" : " integers") + ", one per dimension: " +
                               descName + "." + member + "(" + corners[rank - 1] +
                               (load ? ")" : ", t)"));
    return nullptr;
  }
  std::vector<Value *> corner;
  for (const Expr *x : *offs) {
    Value *v = lowerExpr(x);
    if (!v)
      return nullptr;
    if (v->type.isTile() || v->type.pointer || !v->type.elem.isInteger()) {
      error(x, "the box's offsets are integers");
      return nullptr;
    }
    corner.push_back(v);
  }

  // A stored value first: the box's addresses are computed next to the store.
  Value *val = nullptr;
  if (!load && !(val = lowerExpr(call->getArg(1))))
    return nullptr;
  Box box{d.base, d.shape, d.strides, corner, d.block,
          std::vector<bool>(rank, true), descName, "descriptor"};
  return lowerBoxAccess(box, load, val, call, load ? nullptr : call->getArg(1));
}

Value *Lowerer::lowerBoxAccess(const Box &b, bool load, Value *val, const CallExpr *call,
                               const Expr *valExpr) {
  const size_t rank = b.block.size();
  // Index tiles along each dimension, shaped to broadcast over the box: [B0, 1], [1, B1].
  const ElemType i32 = ElemType::known(ScalarKind::I32), i64 = ElemType::known(ScalarKind::I64);
  Value *offset = nullptr, *inside = nullptr;
  for (size_t dim = 0; dim < rank; ++dim) {
    Type t{i32, false, false, {b.block[dim]}};
    Op *ar = emit(OpKind::Arange, {}, t, call);
    ar->attrs = {SymExpr(0), b.block[dim]};
    Value *idx = binary("+", b.corner[dim], ar->result, call);
    // Named after the descriptor, so the CUDA reads `da_rows`, `da_cols`, `da_inside`.
    static const char *const dimNames[3][3] = {
        {"idx", "", ""}, {"rows", "cols", ""}, {"d0", "d1", "d2"}};
    if (!idx)
      return nullptr;
    idx->name = b.name + "_" + dimNames[rank - 1][dim];
    Value *in = nullptr;
    if (b.checked[dim]) {
      Value *zero = constant(0, i32, call);
      Value *above = binary(">=", idx, zero, call); // in order: the IR's numbering is stable
      Value *below = binary("<", idx, b.shape[dim], call);
      in = binary("&", above, below, call);
      if (!in)
        return nullptr;
    }
    auto place = [&](Value *v) {
      for (size_t before = 0; before < dim; ++before) {
        Type e = v->type;
        e.shape.insert(e.shape.begin(), SymExpr(1));
        Op *op = emit(OpKind::ExpandDims, {v}, e, call);
        op->attrs = {SymExpr(0)};
        v = op->result;
      }
      for (size_t after = dim + 1; after < rank; ++after) {
        Type e = v->type;
        e.shape.push_back(SymExpr(1));
        Op *op = emit(OpKind::ExpandDims, {v}, e, call);
        op->attrs = {SymExpr(int64_t(e.shape.size()) - 1)};
        v = op->result;
      }
      return v;
    };
    Value *term = place(idx);
    // Rows in 64-bit, times their stride; a last dimension of stride 1 is the index itself.
    const Op *sdef = b.strides[dim]->def;
    bool unitLast = dim + 1 == rank && sdef && sdef->kind == OpKind::Constant &&
                    !sdef->attrs.empty() && sdef->attrs[0].isConst(1);
    if (!unitLast)
      term = binary("*", castTo(term, i64, call), b.strides[dim], call);
    offset = offset ? binary("+", offset, term, call) : term;
    if (in) {
      Value *placed = place(in);
      inside = inside ? binary("&", inside, placed, call) : placed;
      if (!inside)
        return nullptr;
    }
    if (!offset)
      return nullptr;
  }
  Value *ptrs = binary("+", b.base, offset, call);
  if (!ptrs)
    return nullptr;
  // Boxes with dimensions of size 1 leave the pieces smaller than the box.
  Type box{b.base->type.elem, false, false, b.block};
  ptrs = broadcastTo(ptrs, box.shape, call);
  if (inside)
    inside = broadcastTo(inside, box.shape, call);
  const bool anyChecked = std::find(b.checked.begin(), b.checked.end(), true) != b.checked.end();
  if (!ptrs || (anyChecked && !inside))
    return nullptr;
  if (inside)
    inside->name = b.name + "_inside";
  if (load) {
    std::vector<Value *> ops = {ptrs};
    if (inside)
      ops.insert(ops.end(), {inside, constant(0, box.elem, call)});
    return emit(OpKind::Load, ops, box, call)->result;
  }
  if (b.base->type.pointeeConst) {
    error(call, "storing through a " + b.what + " of a pointer to const");
    return nullptr;
  }
  if (!val)
    return nullptr;
  if (val->type.pointer) {
    error(valExpr, "storing pointers is not supported");
    return nullptr;
  }
  if (val->type.isTile() && !sameShape(val->type.shape, box.shape)) {
    error(valExpr, "the stored tile must have the " + b.what + "'s box shape " +
                       box.shapeStr() + ", not " + val->type.shapeStr());
    return nullptr;
  }
  val = castTo(val, box.elem, valExpr);
  if (val && val->type.isScalar())
    val = emit(OpKind::Splat, {val}, Type{val->type.elem, false, false, box.shape}, call)->result;
  if (!val)
    return nullptr;
  std::vector<Value *> ops = {ptrs, val};
  if (inside)
    ops.push_back(inside);
  emit(OpKind::Store, ops, Type{}, call, /*hasResult=*/false);
  return nullptr;
}

} // namespace tilec
