// Statements -> tile IR: declarations bind names to values; assignment rebinds them;
// static_asserts over template parameters are kept. Control flow (if/for/while) is in
// ControlFlow.cpp.
#include "frontend/Lowerer.h"

#include <clang/Basic/SourceManager.h>

namespace tilec {

using namespace clang;

static void nameValue(Value *v, const std::string &name) {
  if (v && v->name.empty() && !v->type.pointer)
    v->name = name;
}

void Lowerer::lowerStmtNode(const Stmt *s) {
  if (!s)
    return;
  if (auto *cs = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt *child : cs->body())
      lowerStmt(child);
    return;
  }
  if (isa<NullStmt>(s))
    return;
  if (auto *ds = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : ds->decls()) {
      if (auto *sa = dyn_cast<StaticAssertDecl>(d)) {
        lowerStaticAssert(sa);
        continue;
      }
      if (isa<TypedefNameDecl>(d))
        continue; // nothing to translate
      auto *vd = dyn_cast<VarDecl>(d);
      if (!vd) {
        error(d->getBeginLoc(),
              isa<TagDecl>(d) ? "declaring a struct, class, union or enum inside a kernel is "
                                "not supported; kernels use tiles, scalars and pointers"
                              : "only variable declarations are supported in kernels");
        continue;
      }
      if (!checkVarDecl(vd, VarRole::Local))
        continue;
      if (!vd->hasInit()) {
        // `float m; if constexpr (C) m = ...; else m = ...;` (an original's name set in each
        // branch): a scalar starts as 0 (reading it before an assignment would be undefined
        // in C++, so 0 is one meaning), and the branches' assignments carry it as usual.
        QualType declared = vd->getType();
        bool scalar = declared->getAs<TemplateTypeParmType>() != nullptr ||
                      (!declared->isDependentType() && declared->isArithmeticType());
        std::optional<ElemType> t =
            scalar ? mapElemType(declared, vd->getLocation()) : std::nullopt;
        if (!t) {
          if (!scalar)
            error(vd->getLocation(), "variable '" + vd->getNameAsString() +
                                         "' must be initialized where it is declared (only "
                                         "scalars may be declared first and assigned later)");
          continue;
        }
        Value *zero = castTo(constant(SymExpr(0), ElemType::known(ScalarKind::I32), nullptr), *t,
                             nullptr);
        nameValue(zero, vd->getNameAsString());
        vars_[vd] = zero;
        continue;
      }
      if (bindDescriptor(vd) || bindBlockPtr(vd) || bindPair(vd))
        continue;
      Value *v = lowerExpr(vd->getInit());
      if (!v)
        continue;
      if (isa<DecompositionDecl>(vd)) {
        error(vd->getLocation(), "structured bindings take apart the pair tl::swizzle2d or "
                                 "tl::split returns, not other values");
        continue;
      }
      // An explicitly typed scalar declaration converts (`float s = 1;`), to a template
      // type parameter too (`T t = total;` rounds to T where the kernel is instantiated).
      QualType declared = vd->getType();
      bool templateType = declared->getAs<TemplateTypeParmType>() != nullptr;
      if ((templateType || (!declared->isDependentType() && !declared->isUndeducedType() &&
                            declared->isArithmeticType())) &&
          v->type.isScalar() && !v->type.pointer) {
        if (auto t = mapElemType(declared, vd->getLocation()))
          v = castTo(v, *t, vd->getInit());
      }
      nameValue(v, vd->getNameAsString());
      vars_[vd] = v;
    }
    return;
  }
  if (auto *rs = dyn_cast<ReturnStmt>(s)) {
    if (returnSlot_) {
      if (rs->getRetValue())
        if (Value *v = lowerExpr(rs->getRetValue()))
          returnSlot_->push_back(v);
      return;
    }
    if (rs->getRetValue()) {
      error(s, "kernels return void");
      return;
    }
    emit(OpKind::Return, {}, Type{}, nullptr, /*hasResult=*/false);
    return;
  }
  // `x = y` and `x op= y`: built-in operators, or the class's operator= on tiles and the
  // storage types (non-dependent code), which convert to x's type the same way.
  const Expr *lhsExpr = nullptr, *rhsExpr = nullptr;
  std::string compoundOp; // "+" for `+=`; empty for `=`
  if (auto *bo = dyn_cast<BinaryOperator>(s); bo && bo->isAssignmentOp()) {
    lhsExpr = bo->getLHS();
    rhsExpr = bo->getRHS();
    if (bo->isCompoundAssignmentOp())
      compoundOp = BinaryOperator::getOpcodeStr(
                       BinaryOperator::getOpForCompoundAssignment(bo->getOpcode()))
                       .str();
  } else if (auto *oc = dyn_cast<CXXOperatorCallExpr>(s);
             oc && oc->isAssignmentOp() && oc->getNumArgs() == 2) {
    lhsExpr = oc->getArg(0);
    rhsExpr = oc->getArg(1);
    if (oc->getOperator() != OO_Equal) {
      std::string spelling = getOperatorSpelling(oc->getOperator());
      compoundOp = spelling.substr(0, spelling.size() - 1);
    }
  }
  if (lhsExpr) {
    auto *lhs = dyn_cast<DeclRefExpr>(lhsExpr->IgnoreParenImpCasts());
    if (lhs && blockPtrs_.count(lhs->getDecl())) {
      if (!compoundOp.empty())
        error(s, "a block pointer moves with tl::advance: " + lhs->getDecl()->getNameAsString() +
                     " = tl::advance(" + lhs->getDecl()->getNameAsString() + ", {...})");
      else
        assignBlockPtr(lhs->getDecl(), rhsExpr, s);
      return;
    }
    if (!lhs || !vars_.count(lhs->getDecl())) {
      // A local whose initializer failed has been reported already: its later assignments
      // are not a second mistake.
      auto *local = lhs ? dyn_cast<VarDecl>(lhs->getDecl()) : nullptr;
      bool reported = local && local->isLocalVarDecl() && failed_;
      if (!reported && (!lhs || !rejectedDecl(lhs->getDecl())))
        error(lhsExpr, "only local variables can be assigned");
      return;
    }
    Value *rhs = lowerExpr(rhsExpr);
    if (!compoundOp.empty()) {
      Value *old = vars_[lhs->getDecl()];
      rhs = binary(compoundOp, old, rhs, cast<Expr>(s));
      if (rhs && old && !old->type.pointer)
        rhs = castTo(rhs, old->type.elem, cast<Expr>(s)); // `x += y` keeps x's type
    }
    if (rhs)
      assign(lhs->getDecl(), rhs, s);
    return;
  }
  if (auto *uo = dyn_cast<UnaryOperator>(s); uo && uo->isIncrementDecrementOp()) {
    auto *ref = dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParenImpCasts());
    if (!ref || !vars_.count(ref->getDecl())) {
      error(s, "only local variables can be incremented");
      return;
    }
    Value *old = vars_[ref->getDecl()];
    Value *one = constant(1, ElemType::known(ScalarKind::I32), uo);
    Value *v = binary(uo->isIncrementOp() ? "+" : "-", old, one, uo);
    if (v && !old->type.pointer)
      v = castTo(v, old->type.elem, uo);
    if (v)
      assign(ref->getDecl(), v, s);
    return;
  }
  if (auto *is = dyn_cast<IfStmt>(s))
    return lowerIf(is);
  if (isa<ForStmt>(s) || isa<CXXForRangeStmt>(s))
    return lowerFor(s);
  if (auto *ws = dyn_cast<WhileStmt>(s))
    return lowerWhile(ws);
  if (isa<DoStmt>(s)) {
    error(s, "do-while loops are not supported by the translator yet; use while or for");
    return;
  }
  if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) {
    error(s, "break and continue are not supported in kernels");
    return;
  }
  if (auto *e = dyn_cast<Expr>(s)) {
    // `(void)M;` (an argument kept for the signature): nothing to do for a name; any other
    // operand is evaluated for its effects.
    if (auto *ce = dyn_cast<ExplicitCastExpr>(e->IgnoreParens()); ce && ce->getType()->isVoidType()) {
      const Expr *sub = ce->getSubExpr()->IgnoreParenImpCasts();
      if (!isa<DeclRefExpr>(sub))
        lowerExpr(sub);
      return;
    }
    lowerExpr(e);
    return;
  }
  error(s, unsupported(s));
}

bool Lowerer::bindPair(const VarDecl *vd) {
  auto pair = lowerPair(vd->getInit());
  if (!pair)
    return false;
  auto *dd = dyn_cast<DecompositionDecl>(vd);
  if (!(*pair)[0]) { // reported; later uses of the names stay quiet
    if (!dd)
      pairs_[vd] = *pair;
    return true;
  }
  if (!dd) { // `auto p = ...`: read as p.first and p.second (p_first, p_second in the CUDA)
    nameValue((*pair)[0], vd->getNameAsString() + "_first");
    nameValue((*pair)[1], vd->getNameAsString() + "_second");
    pairs_[vd] = *pair;
    return true;
  }
  // In a template clang may not have counted the names yet.
  if (dd->bindings().size() != 2) {
    error(vd->getLocation(),
          "a pair takes apart into 2 names, not " + std::to_string(dd->bindings().size()));
    return true;
  }
  for (size_t k = 0; k < 2; ++k) {
    nameValue((*pair)[k], dd->bindings()[k]->getNameAsString());
    vars_[dd->bindings()[k]] = (*pair)[k];
  }
  return true;
}

bool Lowerer::assign(const ValueDecl *var, Value *v, const Stmt *at) {
  Value *old = vars_[var];
  if (old->type.isTile() != v->type.isTile() || !sameShape(old->type.shape, v->type.shape)) {
    error(at, "assignment changes the shape of '" + var->getNameAsString() + "' from " +
                  old->type.shapeStr() + " to " + v->type.shapeStr());
    return false;
  }
  if (old->type.pointer != v->type.pointer) {
    error(at, "assignment changes '" + var->getNameAsString() + "' between pointer and value");
    return false;
  }
  if (!old->type.pointer && !(old->type.elem == v->type.elem)) {
    v = castTo(v, old->type.elem, dyn_cast<Expr>(at));
    if (!v)
      return false;
  }
  nameValue(v, var->getNameAsString());
  vars_[var] = v;
  return true;
}

/// Whether `e` uses only what the generated kernel has too: literals, operators, casts to
/// arithmetic types, template parameters and sizeof of types. Names anything else in `what`.
static bool onlyTemplateParameters(const Expr *e, std::string &what) {
  e = e->IgnoreParens();
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, FloatingLiteral, CharacterLiteral>(e))
    return true;
  if (auto *ref = dyn_cast<DeclRefExpr>(e)) {
    if (isa<NonTypeTemplateParmDecl>(ref->getDecl()))
      return true;
    what = "'" + ref->getDecl()->getNameAsString() + "'";
    return false;
  }
  if (auto *t = dyn_cast<UnaryExprOrTypeTraitExpr>(e))
    return t->isArgumentType() || onlyTemplateParameters(t->getArgumentExpr(), what);
  if (auto *c = dyn_cast<CastExpr>(e)) {
    if (!c->getType()->isArithmeticType() && !c->getType()->isBooleanType()) {
      what = "a cast to '" + c->getType().getAsString() + "'";
      return false;
    }
    return onlyTemplateParameters(c->getSubExpr(), what);
  }
  if (isa<BinaryOperator, UnaryOperator, ConditionalOperator>(e)) {
    for (const Stmt *child : e->children())
      if (!onlyTemplateParameters(cast<Expr>(child), what))
        return false;
    return true;
  }
  what = std::string("'") + e->getStmtClassName() + "'";
  if (isa<CallExpr>(e))
    what = "a function call";
  return false;
}

/// A static_assert in a kernel: one that depends on template parameters is kept in the
/// generated kernel and in its launcher, so that a specialization it refuses does not compile
/// on the GPU either (the host compiler checks the others, and the interpreter all of them).
void Lowerer::lowerStaticAssert(const StaticAssertDecl *sa) {
  const Expr *cond = sa->getAssertExpr();
  if (!cond->isValueDependent())
    return; // already checked where the kernel source is compiled
  auto *msgLit = dyn_cast_or_null<StringLiteral>(sa->getMessage());
  std::string what;
  if (!onlyTemplateParameters(cond, what)) {
    error(cond, "a static_assert in a kernel may use template parameters, literals, operators "
                "and sizeof only (it is checked where the kernel is compiled for the GPU), not " +
                    what + "; check the rest in host code");
    return;
  }
  std::string message = msgLit ? msgLit->getString().str() : sourceText(cond->getSourceRange());
  Op *op = emit(OpKind::StaticAssert, {}, Type{}, nullptr, /*hasResult=*/false);
  op->opcode = message;
  op->attrs.push_back(SymExpr::expr(sourceText(cond->getSourceRange()), true));
  auto &sm = ctx_.getSourceManager();
  op->loc = sm.getExpansionLoc(sa->getBeginLoc());
  op->line = sm.getPresumedLineNumber(op->loc);
  op->srcText = sourceText(sa->getSourceRange());
}

} // namespace tilec
