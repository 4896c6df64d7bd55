// Block pointers (tilec/tl/block_ptr.h): `auto p = tl::make_block_ptr<B0, B1>(base, {M, K},
// {s0, s1}, {m0, k0})`, `p = tl::advance(p, {0, BK})`, `tl::load(p, {0, 1})`, `tl::store(p, t)`.
//
// The IR has no block pointer type. The tensor (base, shape, strides, box) is lowered once,
// where the pointer is made; what changes is the box's offsets, one integer per dimension,
// which the frontend keeps in locals of its own (`p_row0`, `p_col0`) so that loops and
// branches carry them like any variable. A load or store becomes the pointer tile and mask of
// its box (lowerBoxAccess, as for tensor descriptors), with only the dimensions of the
// boundary check masked; the analyses then see the loop's offsets advance by a constant step,
// as they do for pointer tiles advanced in place.
#include "frontend/Lowerer.h"

#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <set>

namespace tilec {

using namespace clang;

namespace {

const char *const kHowMake = "tl::make_block_ptr<BLOCK_M, BLOCK_K>(base, {M, K}, {stride_m, "
                             "stride_k}, {m0, k0})";

/// The braced list of a std::initializer_list argument (or of a std::array one).
std::optional<std::vector<const Expr *>> listElements(const Expr *e) {
  e = skipTemporaries(e);
  if (auto *il = dyn_cast<CXXStdInitializerListExpr>(e->IgnoreImplicit()))
    e = skipTemporaries(il->getSubExpr());
  return bracedElements(e);
}

/// Whether two scalars are the same value: the same SSA value, or equal constants.
bool sameScalar(const Value *a, const Value *b) {
  if (a == b)
    return true;
  const Op *da = a->def, *db = b->def;
  return da && db && da->kind == OpKind::Constant && db->kind == OpKind::Constant &&
         a->type.elem == b->type.elem && !da->attrs.empty() && !db->attrs.empty() &&
         da->attrs[0].sameAs(db->attrs[0]);
}

bool sameTensor(const Lowerer::BlockPtr &a, const Lowerer::BlockPtr &b) {
  if (a.base != b.base || a.block.size() != b.block.size())
    return false;
  for (size_t d = 0; d < a.block.size(); ++d)
    if (!a.block[d].sameAs(b.block[d]) || !sameScalar(a.shape[d], b.shape[d]) ||
        !sameScalar(a.strides[d], b.strides[d]))
      return false;
  return true;
}

/// The names of a block pointer's offsets: the first row and column of its box.
std::string offsetName(const std::string &ptr, size_t rank, size_t dim) {
  static const char *const names[3][3] = {
      {"start", "", ""}, {"row0", "col0", ""}, {"start0", "start1", "start2"}};
  return ptr + "_" + names[rank - 1][dim];
}

/// The dimensions whose offsets a statement's assignments to block pointer `p` may change:
/// `p = tl::advance(p, {0, BK})` changes only dimension 1 (nested advances add up); any other
/// assignment may change them all. Loops and branches carry only these.
class ChangedDims : public RecursiveASTVisitor<ChangedDims> {
public:
  ChangedDims(Lowerer &l, const ValueDecl *p, size_t rank) : l_(l), p_(p), rank_(rank) {}
  std::set<size_t> dims;

  bool VisitBinaryOperator(BinaryOperator *bo) {
    if (bo->getOpcode() == BO_Assign)
      assigned(bo->getLHS(), bo->getRHS());
    else if (bo->isCompoundAssignmentOp())
      assigned(bo->getLHS(), nullptr);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *oc) {
    if (oc->isAssignmentOp() && oc->getNumArgs() == 2)
      assigned(oc->getArg(0), oc->getOperator() == OO_Equal ? oc->getArg(1) : nullptr);
    return true;
  }

private:
  bool namesP(const Expr *e) const {
    auto *ref = dyn_cast<DeclRefExpr>(skipTemporaries(e)->IgnoreParenImpCasts());
    return ref && ref->getDecl() == p_;
  }
  void assigned(const Expr *lhs, const Expr *rhs) {
    if (!namesP(lhs))
      return;
    // Peel advances of p itself, noting the dimensions they step.
    while (rhs) {
      if (namesP(rhs))
        return; // p = p
      auto *call = dyn_cast<CallExpr>(skipTemporaries(rhs)->IgnoreParenImpCasts());
      if (!call || call->getNumArgs() != 2)
        break;
      Callee c = l_.resolveCallee(call->getCallee());
      auto steps = bracedElements(call->getArg(1));
      if (!c.inTl || c.name != "advance" || !steps || steps->size() != rank_)
        break;
      for (size_t d = 0; d < rank_; ++d)
        if (auto s = l_.evalSym((*steps)[d]); !s || !s->isConst(0))
          dims.insert(d);
      rhs = call->getArg(0);
    }
    for (size_t d = 0; d < rank_; ++d)
      dims.insert(d);
  }
  Lowerer &l_;
  const ValueDecl *p_;
  size_t rank_;
};

} // namespace

std::optional<Lowerer::BlockPtr> Lowerer::lowerBlockPtr(const Expr *e) {
  const Expr *bare = skipTemporaries(e)->IgnoreParenImpCasts();
  if (auto *ref = dyn_cast<DeclRefExpr>(bare)) {
    auto it = blockPtrs_.find(ref->getDecl());
    if (it == blockPtrs_.end())
      return std::nullopt;
    BlockPtr p = it->second.ptr;
    if (!p.base)
      return p;
    for (const ValueDecl *v : it->second.offsetVars) {
      auto value = vars_.find(v);
      if (value == vars_.end() || !value->second)
        return BlockPtr{};
      p.offsets.push_back(value->second);
    }
    return p;
  }
  auto *call = dyn_cast<CallExpr>(bare);
  if (!call)
    return std::nullopt;
  Callee c = resolveCallee(call->getCallee());
  if (!c.inTl || (c.name != "make_block_ptr" && c.name != "advance"))
    return std::nullopt;
  const BlockPtr failed; // a null base: reported

  // One integer per dimension: shape, strides, offsets, deltas.
  auto integers = [&](const Expr *list, size_t rank, const std::string &what,
                      const std::string &how) -> std::optional<std::vector<Value *>> {
    auto elems = listElements(list);
    if (!elems || elems->size() != rank) {
      error(list, what + " is a braced list of " + std::to_string(rank) +
                      (rank == 1 ? " integer" : " integers") + ", one per dimension of the box: " +
                      how);
      return std::nullopt;
    }
    std::vector<Value *> out;
    for (const Expr *x : *elems) {
      Value *v = lowerExpr(x);
      if (!v)
        return std::nullopt;
      if (v->type.isTile() || v->type.pointer || !v->type.elem.isInteger()) {
        error(x, what + " are integers");
        return std::nullopt;
      }
      out.push_back(v);
    }
    return out;
  };

  if (c.name == "advance") {
    const std::string how = "p = tl::advance(p, {0, BLOCK_K})";
    if (!wantArgs(call, c, 2, 2))
      return failed;
    auto p = lowerBlockPtr(call->getArg(0));
    if (!p) {
      error(call->getArg(0), "tl::advance moves a block pointer (made by tl::make_block_ptr); "
                             "for a tile of pointers, add the step: ptrs += BLOCK_K");
      return failed;
    }
    if (!p->base)
      return failed;
    auto deltas = integers(call->getArg(1), p->block.size(), "tl::advance's steps", how);
    if (!deltas)
      return failed;
    for (size_t d = 0; d < deltas->size(); ++d) {
      const Op *step = (*deltas)[d]->def;
      if (step && step->kind == OpKind::Constant && step->attrs[0].isConst(0))
        continue; // this dimension stays
      p->offsets[d] = binary("+", p->offsets[d], (*deltas)[d], call);
      if (!p->offsets[d])
        return failed;
    }
    return p;
  }

  // tl::make_block_ptr<B...>(base, {shape}, {strides}, {offsets} [, {order}])
  if (c.templateArgs.empty() || c.templateArgs.size() > 3) {
    error(call, std::string("a block pointer's box shape is 1 to 3 template arguments: ") +
                    kHowMake);
    return failed;
  }
  if (!wantArgs(call, c, 4, 5))
    return failed;
  BlockPtr p;
  for (auto &ta : c.templateArgs) {
    auto b = templateArgSym(ta);
    if (!b)
      return failed;
    p.block.push_back(*b);
  }
  const size_t rank = p.block.size();
  Value *base = lowerExpr(call->getArg(0));
  if (!base)
    return failed;
  if (!base->type.pointer || base->type.isTile()) {
    error(call->getArg(0), std::string("a block pointer's base is a pointer: ") + kHowMake);
    return failed;
  }
  auto shape = integers(call->getArg(1), rank, "a block pointer's shape", kHowMake);
  auto strides = shape ? integers(call->getArg(2), rank, "a block pointer's strides", kHowMake)
                       : std::nullopt;
  auto offsets = strides ? integers(call->getArg(3), rank, "a block pointer's offsets", kHowMake)
                         : std::nullopt;
  if (!offsets)
    return failed;
  if (givenArgs(call) == 5) {
    // Triton's order: a permutation of the dimensions. The strides say the same to the
    // compiler, so it is checked and dropped.
    auto order = listElements(call->getArg(4));
    std::vector<bool> seen(rank, false);
    bool ok = order && order->size() == rank;
    for (size_t i = 0; ok && i < rank; ++i) {
      auto s = evalSym((*order)[i]);
      ok = s && s->isConst() && s->value() >= 0 && size_t(s->value()) < rank &&
           !seen[size_t(s->value())];
      if (ok)
        seen[size_t(s->value())] = true;
    }
    if (!ok) {
      error(call->getArg(4), "a block pointer's order is a permutation of its dimensions, "
                             "as constants (fastest first): {1, 0}");
      return failed;
    }
  }
  p.base = base;
  p.shape = *shape;
  p.strides = *strides;
  p.offsets = *offsets;
  p.name = "block";
  return p;
}

void Lowerer::addBlockPtrOffsets(const ValueDecl *d, const Stmt *part,
                                 std::vector<const ValueDecl *> &out) {
  auto it = blockPtrs_.find(d);
  if (it == blockPtrs_.end())
    return;
  ChangedDims changed(*this, d, it->second.offsetVars.size());
  changed.TraverseStmt(const_cast<Stmt *>(part));
  for (size_t dim : changed.dims)
    out.push_back(it->second.offsetVars[dim]);
}

bool Lowerer::bindBlockPtr(const VarDecl *vd) {
  auto p = lowerBlockPtr(vd->getInit());
  if (!p)
    return false;
  BlockPtrLocal &local = blockPtrs_[vd];
  local.ptr = *p;
  local.ptr.offsets.clear();
  const std::string name = vd->getNameAsString();
  local.ptr.name = name;
  if (!p->base)
    return true;
  const size_t rank = p->block.size();
  auto *dc = const_cast<DeclContext *>(vd->getDeclContext());
  for (size_t d = 0; d < rank; ++d) {
    // A local of the frontend's own: the AST never sees it, vars_ and the carried
    // variables of loops and branches do.
    auto *off = VarDecl::Create(ctx_, dc, vd->getBeginLoc(), vd->getLocation(),
                                &ctx_.Idents.get(offsetName(name, rank, d)), ctx_.IntTy, nullptr,
                                SC_None);
    local.offsetVars.push_back(off);
    Value *v = p->offsets[d];
    if (v->name.empty()) // the CUDA names the box's first row and column
      v->name = off->getNameAsString();
    vars_[off] = v;
  }
  return true;
}

bool Lowerer::assignBlockPtr(const ValueDecl *var, const Expr *rhs, const Stmt *at) {
  auto it = blockPtrs_.find(var);
  if (it == blockPtrs_.end())
    return false;
  const std::string name = var->getNameAsString();
  auto p = lowerBlockPtr(rhs);
  if (!p) {
    error(rhs, "'" + name + "' is a block pointer: assign it tl::advance(" + name +
                   ", {...}) or another block pointer");
    return true;
  }
  const BlockPtrLocal &local = it->second;
  if (!p->base || !local.ptr.base)
    return true;
  if (!sameTensor(*p, local.ptr)) {
    error(at, "'" + name + "' keeps the tensor and box it was made with (base, shape, strides, "
                           "block): move it with " + name + " = tl::advance(" + name +
                  ", {...}), or declare another block pointer for another tensor");
    return true;
  }
  for (size_t d = 0; d < local.offsetVars.size(); ++d)
    if (p->offsets[d] != vars_[local.offsetVars[d]] &&
        !assign(local.offsetVars[d], p->offsets[d], at))
      return true;
  return true;
}

std::optional<Value *> Lowerer::lowerBlockPtrCall(const CallExpr *call, const Callee &c) {
  const std::string &n = c.name;
  if (n == "make_block_ptr") {
    error(call, std::string("keep a block pointer in a local and access it with tl::load and "
                            "tl::store: auto p = ") + kHowMake);
    return nullptr;
  }
  if (n == "advance") {
    error(call, "tl::advance returns the moved block pointer: p = tl::advance(p, {0, BLOCK_K})");
    return nullptr;
  }
  if ((n != "load" && n != "store") || givenArgs(call) == 0)
    return std::nullopt;
  auto p = lowerBlockPtr(call->getArg(0));
  if (!p)
    return std::nullopt;
  if (!p->base)
    return nullptr;
  const bool load = n == "load";
  const size_t rank = p->block.size();
  const unsigned nargs = givenArgs(call), valueArgs = load ? 1 : 2;
  if (nargs != valueArgs && nargs != valueArgs + 1) {
    error(call, load ? "tl::load of a block pointer takes the pointer and the dimensions to "
                       "bounds-check: tl::load(p) or tl::load(p, {0, 1})"
                     : "tl::store to a block pointer takes the pointer, the tile and the "
                       "dimensions to bounds-check: tl::store(p, t) or tl::store(p, t, {0, 1})");
    return nullptr;
  }
  Value *val = nullptr;
  if (!load && !(val = lowerExpr(call->getArg(1))))
    return nullptr;
  std::vector<bool> checked(rank, false);
  if (nargs > valueArgs) {
    const Expr *list = call->getArg(valueArgs);
    auto dims = listElements(list);
    bool ok = dims.has_value();
    for (size_t i = 0; ok && i < dims->size(); ++i) {
      auto s = evalSym((*dims)[i]);
      ok = s && s->isConst() && s->value() >= 0 && size_t(s->value()) < rank &&
           !checked[size_t(s->value())];
      if (ok)
        checked[size_t(s->value())] = true;
    }
    if (!ok) {
      error(list, "the boundary check is a braced list of distinct dimensions of the box, as "
                  "constants: " + std::string(rank == 1 ? "{0}" : "{0, 1}") +
                      " (elements outside those read as zero and are not stored)");
      return nullptr;
    }
  }
  Box box{p->base, p->shape, p->strides, p->offsets, p->block, checked, p->name, "block pointer"};
  return lowerBoxAccess(box, load, val, call, load ? nullptr : call->getArg(1));
}

} // namespace tilec
