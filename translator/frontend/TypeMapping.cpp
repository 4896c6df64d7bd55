// Clang types and template arguments -> tile IR element types and symbolic integers.
#include "frontend/Lowerer.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Type.h>

namespace tilec {

using namespace clang;

static std::optional<ScalarKind> builtinKind(const BuiltinType *b, ASTContext &ctx) {
  switch (b->getKind()) {
  case BuiltinType::Bool:
    return ScalarKind::Bool;
  case BuiltinType::Float:
    return ScalarKind::F32;
  case BuiltinType::Double:
    return ScalarKind::F64;
  default:
    break;
  }
  if (!b->isInteger())
    return std::nullopt;
  unsigned bits = ctx.getTypeSize(b);
  bool isSigned = b->isSignedInteger();
  switch (bits) {
  case 8:
    return isSigned ? ScalarKind::I8 : ScalarKind::U8;
  case 16:
    return isSigned ? ScalarKind::I16 : ScalarKind::U16;
  case 32:
    return isSigned ? ScalarKind::I32 : ScalarKind::U32;
  case 64:
    return isSigned ? ScalarKind::I64 : ScalarKind::U64;
  default:
    return std::nullopt;
  }
}

std::optional<ElemType> storageType(QualType qt) {
  auto *rd = qt.getCanonicalType()->getAsCXXRecordDecl();
  if (!rd)
    return std::nullopt;
  std::string q = rd->getQualifiedNameAsString();
  if (q == "tl::half")
    return ElemType::known(ScalarKind::F16);
  if (q == "tl::bfloat16")
    return ElemType::known(ScalarKind::BF16);
  if (q == "tl::float8_e4m3")
    return ElemType::known(ScalarKind::F8E4M3);
  if (q == "tl::float8_e5m2")
    return ElemType::known(ScalarKind::F8E5M2);
  return std::nullopt;
}

const NamedDecl *Lowerer::templateParamDecl(const TemplateTypeParmType *t) const {
  if (t->getDecl())
    return t->getDecl();
  if (helperParams_ && t->getDepth() == 0 && t->getIndex() < helperParams_->size())
    return helperParams_->getParam(t->getIndex());
  return nullptr;
}

std::optional<ElemType> Lowerer::mapElemType(QualType qt, SourceLocation loc) {
  // A template parameter of a helper being inlined: its deduced type.
  if (auto *tt = qt->getAs<TemplateTypeParmType>())
    if (auto *d = templateParamDecl(tt); d && typeBindings_.count(d))
      return typeBindings_[d];
  QualType t = qt.getCanonicalType().getUnqualifiedType();
  if (auto *b = t->getAs<BuiltinType>())
    if (auto k = builtinKind(b, ctx_))
      return ElemType::known(*k);
  if (auto *p = dyn_cast<TemplateTypeParmType>(t.getTypePtr())) {
    // Canonical parameter types have lost their names: find it by position.
    if (p->getDepth() == 0 && p->getIndex() < templateParamNames_.size())
      return ElemType::typeParam(templateParamNames_[p->getIndex()]);
  }
  if (auto s = storageType(t))
    return s;
  // An enumeration (its enumerators are folded to their values): its integer type.
  if (auto *et = t->getAs<EnumType>())
    if (QualType underlying = et->getDecl()->getIntegerType(); !underlying.isNull())
      return mapElemType(underlying, loc);
  // The translator reads the template before instantiation: a type computed from template
  // parameters (std::conditional_t, a trait's ::type) has no value yet.
  if (t->isDependentType()) {
    error(loc, "element type '" + qt.getAsString() +
                   "' depends on template parameters through a type computation, which the "
                   "translator cannot follow; make it a type template parameter of the kernel "
                   "(template <class ACC>) and choose it where the kernel is launched");
    return std::nullopt;
  }
  error(loc, "unsupported element type '" + qt.getAsString() + "' (" + t->getTypeClassName() + ")");
  return std::nullopt;
}

std::optional<Type> Lowerer::mapType(QualType qt, SourceLocation loc) {
  Type t;
  QualType base = qt.getNonReferenceType();
  if (base->isPointerType()) {
    QualType pointee = base->getPointeeType();
    if (pointee->isPointerType()) {
      error(loc, "pointers to pointers are not supported");
      return std::nullopt;
    }
    t.pointer = true;
    t.pointeeConst = pointee.isConstQualified();
    base = pointee;
  }
  auto e = mapElemType(base, loc);
  if (!e)
    return std::nullopt;
  t.elem = *e;
  return t;
}

std::optional<SymExpr> Lowerer::evalSym(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (auto *sub = dyn_cast<SubstNonTypeTemplateParmExpr>(e))
    return evalSym(sub->getReplacement());
  if (!e->isValueDependent()) {
    Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx_))
      return SymExpr(r.Val.getInt().getExtValue());
  }
  if (auto *ref = dyn_cast<DeclRefExpr>(e))
    if (isa<NonTypeTemplateParmDecl>(ref->getDecl())) {
      auto it = symBindings_.find(ref->getDecl());
      if (it != symBindings_.end())
        return it->second;
      return SymExpr::expr(ref->getDecl()->getName().str(), true);
    }
  if (auto *bo = dyn_cast<BinaryOperator>(e)) {
    auto a = evalSym(bo->getLHS()), b = evalSym(bo->getRHS());
    if (!a || !b)
      return std::nullopt;
    switch (bo->getOpcode()) {
    case BO_Add:
      return *a + *b;
    case BO_Sub:
      return *a - *b;
    case BO_Mul:
      return *a * *b;
    case BO_Div:
      return *a / *b;
    default:
      break;
    }
  }
  return std::nullopt;
}

std::optional<SymExpr> Lowerer::templateArgSym(const TemplateArgumentLoc &a) {
  const TemplateArgument &arg = a.getArgument();
  if (arg.getKind() == TemplateArgument::Integral)
    return SymExpr(arg.getAsIntegral().getExtValue());
  if (arg.getKind() == TemplateArgument::Expression)
    if (auto s = evalSym(arg.getAsExpr()))
      return s;
  error(a.getLocation(), "expected a compile-time integer (a literal or a template parameter)");
  return std::nullopt;
}

std::optional<ElemType> Lowerer::templateArgType(const TemplateArgumentLoc &a) {
  if (a.getArgument().getKind() != TemplateArgument::Type) {
    error(a.getLocation(), "expected an element type");
    return std::nullopt;
  }
  return mapElemType(a.getArgument().getAsType(), a.getLocation());
}

} // namespace tilec
