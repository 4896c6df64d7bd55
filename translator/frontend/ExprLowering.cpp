// Expressions -> tile IR: literals, variables, operators and calls.
//
// Types follow Triton: comparisons give bool, tile (+) tile promotes, a scalar does not widen
// a tile (except an integer tile with a floating scalar); scalar (+) scalar is plain C++.
#include "frontend/Lowerer.h"

#include <clang/AST/DeclTemplate.h>

#include <clang/AST/Attr.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tilec {

using namespace clang;

void Lowerer::error(SourceLocation loc, const std::string &msg) {
  auto &d = ctx_.getDiagnostics();
  d.Report(loc, d.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << msg;
  failed_ = true;
}

void Lowerer::error(const Stmt *s, const std::string &msg) {
  auto &d = ctx_.getDiagnostics();
  d.Report(s->getBeginLoc(), d.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
      << msg << s->getSourceRange();
  failed_ = true;
}

std::string Lowerer::sourceText(const SourceRange &r) const {
  auto &sm = ctx_.getSourceManager();
  return Lexer::getSourceText(CharSourceRange::getTokenRange(r), sm, ctx_.getLangOpts()).str();
}

Op *Lowerer::emit(OpKind kind, std::vector<Value *> operands, Type t, const Expr *at,
                  bool hasResult) {
  Op *op = k_.append(kind, std::move(operands), std::move(t), hasResult);
  if (at) {
    auto &sm = ctx_.getSourceManager();
    op->loc = sm.getExpansionLoc(at->getBeginLoc());
    op->line = sm.getPresumedLineNumber(op->loc);
    op->srcText = sourceText(at->getSourceRange());
  }
  return op;
}

Value *Lowerer::constant(SymExpr value, ElemType t, const Expr *at) {
  Op *op = emit(OpKind::Constant, {}, Type{t, false, false, {}}, at);
  op->attrs.push_back(std::move(value));
  return op->result;
}

Value *Lowerer::broadcastTo(Value *v, const std::vector<SymExpr> &shape, const Expr *at) {
  if (!v || v->type.isScalar() || sameShape(v->type.shape, shape))
    return v;
  // NumPy: a lower-rank tile gains leading unit dimensions.
  while (v->type.shape.size() < shape.size() && shape.size() <= 3) {
    Type t = v->type;
    t.shape.insert(t.shape.begin(), SymExpr(1));
    Op *e = emit(OpKind::ExpandDims, {v}, t, at);
    e->attrs = {SymExpr(0)};
    v = e->result;
  }
  if (v->type.shape.size() != shape.size()) {
    error(at, "cannot broadcast a tile of shape " + v->type.shapeStr() + " to rank " +
                  std::to_string(shape.size()));
    return nullptr;
  }
  for (size_t d = 0; d < shape.size(); ++d)
    if (!v->type.shape[d].sameAs(shape[d]) && !v->type.shape[d].isConst(1)) {
      error(at, "cannot broadcast a tile of shape " + v->type.shapeStr() + " to " +
                    Type{ElemType(), false, false, shape}.shapeStr());
      return nullptr;
    }
  if (sameShape(v->type.shape, shape))
    return v;
  // A rank-3 tile grows one axis at a time: each step's operand lives in a slice of the
  // step's layout, so every step is a register read (LayoutAssignment).
  for (size_t d = 0; shape.size() == 3 && d + 1 < shape.size(); ++d)
    if (!v->type.shape[d].sameAs(shape[d])) {
      Type t = v->type;
      t.shape[d] = shape[d];
      v = emit(OpKind::Broadcast, {v}, t, at)->result;
    }
  Type t = v->type;
  t.shape = shape;
  return sameShape(v->type.shape, shape) ? v : emit(OpKind::Broadcast, {v}, t, at)->result;
}

bool Lowerer::broadcastPair(Value *&a, Value *&b, const Expr *at) {
  if (a->type.isScalar() || b->type.isScalar() || sameShape(a->type.shape, b->type.shape))
    return true;
  auto sa = a->type.shape, sb = b->type.shape;
  // Leading unit dimensions for the lower rank, then dimension by dimension.
  while (sa.size() < sb.size())
    sa.insert(sa.begin(), SymExpr(1));
  while (sb.size() < sa.size())
    sb.insert(sb.begin(), SymExpr(1));
  std::vector<SymExpr> out;
  for (size_t d = 0; d < sa.size(); ++d) {
    if (sa[d].sameAs(sb[d]) || sb[d].isConst(1))
      out.push_back(sa[d]);
    else if (sa[d].isConst(1))
      out.push_back(sb[d]);
    else {
      error(at, "incompatible tile shapes " + a->type.shapeStr() + " and " + b->type.shapeStr());
      return false;
    }
  }
  a = broadcastTo(a, out, at);
  b = broadcastTo(b, out, at);
  return a && b;
}

/// Whether `a / b` or `a % b` promotes two integers of different signedness, which the
/// interpreter rejects: tile with tile, or a bool tile with a signed integer scalar (a scalar
/// of a kind no higher than the tile's takes the tile's type instead).
static bool mixedSignednessDivMod(const Type &a, const Type &b) {
  const ElemType &x = a.elem, &y = b.elem;
  if (!x.isKnown() || !y.isKnown() || x.isFloat() || y.isFloat() || x.isSigned() == y.isSigned())
    return false;
  if (a.isTile() && b.isTile())
    return true;
  const ElemType &tile = a.isTile() ? x : y, &scalar = a.isTile() ? y : x;
  return (a.isTile() || b.isTile()) && tile.is(ScalarKind::Bool) && scalar.isInteger();
}

static bool isComparison(const std::string &op) {
  return op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" || op == "!=";
}

/// Whether an op (or one nested in it) reads or writes memory, or prints: what C++ would not
/// do for the arm of a ?: that it does not take.
static bool hasEffects(const Op &op) {
  switch (op.kind) {
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::Atomic:
  case OpKind::Print:
  case OpKind::Assert:
    return true;
  default:
    break;
  }
  for (const auto &r : op.regions)
    for (const auto &inner : r->ops)
      if (hasEffects(*inner))
        return true;
  return false;
}

Value *Lowerer::selectTiles(Value *c, Value *a, Value *b, const Op *beforeArms,
                            const ConditionalOperator *co) {
  // Both arms are computed and one is selected: right when neither touches memory, which C++
  // would not do for the arm it skips (a load through the null pointer of an absent bias).
  const auto &ops = k_.current().ops;
  auto arm = ops.begin();
  if (beforeArms)
    arm = std::find_if(ops.begin(), ops.end(), [&](const auto &o) { return o.get() == beforeArms; }) + 1;
  for (; arm != ops.end(); ++arm)
    if (hasEffects(**arm)) {
      error(co, "'?:' on tiles computes both sides on the GPU, and this one reads or writes "
                "memory; assign a variable in an if/else (or if constexpr) instead");
      return nullptr;
    }
  if (a->type.pointer || b->type.pointer) {
    error(co, "'?:' on tiles of pointers is not supported; select the offsets instead");
    return nullptr;
  }
  if (!broadcastPair(a, b, co))
    return nullptr;
  Type t = a->type.isTile() ? a->type : b->type;
  t.elem = a->type.isTile() && b->type.isTile() ? promoteTiles(a->type.elem, b->type.elem)
           : a->type.isTile()                   ? tileWithScalar(a->type.elem, b->type.elem, co)
                                                : tileWithScalar(b->type.elem, a->type.elem, co);
  a = castTo(a, t.elem, co);
  b = castTo(b, t.elem, co);
  if (!a || !b)
    return nullptr;
  return emit(OpKind::Select, {c, a, b}, t, co)->result;
}

ElemType Lowerer::tileWithScalar(const ElemType &tile, const ElemType &scalar, const Expr *at) {
  if (tileScalarRuleDependent(tile, scalar)) {
    std::string cond =
        "tilec::scalar_keeps_tile_type<" + tile.cuda() + ", " + scalar.cuda() + ">";
    if (tileScalarAsserts_.insert(cond).second) {
      // At the top of the kernel, after its parameters and the asserts before it: a copy of
      // the loop or branch that combines them (a pass's specialization) does not repeat it.
      std::vector<Region *> inner;
      std::swap(inner, k_.insertion);
      Op *check = emit(OpKind::StaticAssert, {}, Type{}, at, /*hasResult=*/false);
      std::swap(inner, k_.insertion);
      auto &ops = k_.body.ops;
      auto first = std::find_if(ops.begin(), ops.end(),
                                [](const auto &o) {
                                  return o->kind != OpKind::Param && o->kind != OpKind::StaticAssert;
                                });
      std::rotate(first, ops.end() - 1, ops.end());
      const unsigned line = at ? ctx_.getSourceManager().getPresumedLineNumber(at->getBeginLoc()) : 0;
      check->opcode = "line " + std::to_string(line) + ": with this " + tile.cuda() +
                      ", a tile of it combined with a scalar of " + scalar.cuda() +
                      " changes type (Triton's promotion, tl/promotion.h rule 0); cast the "
                      "tile or the scalar there";
      check->attrs.push_back(SymExpr::expr(cond, true));
    }
  }
  return promoteTileScalar(tile, scalar);
}

Value *Lowerer::binary(const std::string &opcode, Value *a, Value *b, const Expr *at) {
  if (!a || !b)
    return nullptr;
  // Pointer arithmetic: pointer + integer offsets, pointer - integer offsets.
  if (a->type.pointer || b->type.pointer) {
    if (opcode == "+" && b->type.pointer && !a->type.pointer)
      std::swap(a, b);
    const bool minus = opcode == "-" && a->type.pointer && !b->type.pointer;
    if ((opcode != "+" && !minus) || b->type.pointer || !b->type.elem.isInteger()) {
      error(at, "only 'pointer + integer offsets' and 'pointer - integer offsets' are supported "
                "on pointers");
      return nullptr;
    }
    if (minus) {
      // `x + pid - 1` (FlagGems' partial sums): the offsets negated, as signed integers.
      if (!b->type.elem.isSigned())
        b = castTo(b, ElemType::known(ScalarKind::I64), at);
      b = unary("-", b, at);
      if (!b)
        return nullptr;
    }
    if (!broadcastPair(a, b, at))
      return nullptr;
    Type t = a->type;
    if (b->type.isTile())
      t.shape = b->type.shape;
    return emit(OpKind::AddPtr, {a, b}, t, at)->result;
  }
  bool divMod = opcode == "/" || opcode == "%";
  if (divMod && mixedSignednessDivMod(a->type, b->type)) {
    // promotion.h's static_assert, which clang does not reach for dependent operands.
    error(at, "'/' and '%' need integers of the same signedness (cast one first)");
    return nullptr;
  }
  if (!broadcastPair(a, b, at))
    return nullptr;
  Type t;
  t.shape = a->type.isTile() ? a->type.shape : b->type.shape;
  if (a->type.isTile() && b->type.isTile())
    t.elem = promoteTiles(a->type.elem, b->type.elem);
  else if (a->type.isTile())
    t.elem = tileWithScalar(a->type.elem, b->type.elem, at);
  else if (b->type.isTile())
    t.elem = tileWithScalar(b->type.elem, a->type.elem, at);
  else
    t.elem = promoteScalars(a->type.elem, b->type.elem);
  // The interpreter computes `/` and `%` of half and bfloat16 tiles in float (promotion.h);
  // scalars were widened by promoteScalars already.
  if (divMod && (a->type.isTile() || b->type.isTile()))
    t.elem = divType(t.elem);
  bool shift = opcode == "<<" || opcode == ">>";
  if (shift && a->type.isScalar() && b->type.isScalar()) {
    // C++: a scalar shift has the (promoted) type of its left operand.
    t.elem = promoteScalars(a->type.elem, a->type.elem);
    a = castTo(a, t.elem, at);
  } else {
    // Both operands are converted to the promoted type first, as Triton does (and the
    // interpreter for shifts too: `1 << u8tile` is a uint8 tile).
    a = castTo(a, t.elem, at);
    b = castTo(b, t.elem, at);
  }
  if (!a || !b)
    return nullptr;
  bool bitwise = shift || opcode == "&" || opcode == "|" || opcode == "^";
  if (bitwise && (t.elem.isFloat())) {
    error(at, "operator '" + opcode + "' needs integer operands");
    return nullptr;
  }
  if (isComparison(opcode) || opcode == "&&" || opcode == "||")
    t.elem = ElemType::known(ScalarKind::Bool);
  Op *op = emit(OpKind::Binary, {a, b}, t, at);
  op->opcode = opcode;
  // True division of floats is Triton's, for tiles and scalars alike: approximate (within 2
  // ulp) in 32-bit float, which halves compute in; exact in double (fdiv resolves by type where
  // T is a template parameter). A ported `loss / n` must divide as the original does, and `x /
  // y` must not change meaning with x's rank. tl::div_rn asks for the exact one. A quotient
  // of constants (`1.0f / BLOCK`) stays C++'s, which the compiler folds.
  if (opcode == "/" && (!t.elem.isKnown() || t.elem.is(ScalarKind::F32)) &&
      !(isFoldable(a) && isFoldable(b)))
    op->opcode = "fdiv";
  return op->result;
}

/// A value made of constants and template parameters by casts, negations and operators: the
/// C++ compiler folds it (a math function such as tl::exp is not folded, so it does not count).
static bool isFoldableDepth(const Value *v, int depth) {
  if (!v || !v->def || depth > 8 || v->type.isTile() || v->type.pointer)
    return false;
  const Op *op = v->def;
  if (op->kind == OpKind::Constant)
    return true;
  const bool negation = op->kind == OpKind::Unary && op->opcode == "-";
  if (op->kind != OpKind::Cast && op->kind != OpKind::Binary && !negation)
    return false;
  for (const Value *operand : op->operands)
    if (!isFoldableDepth(operand, depth + 1))
      return false;
  return true;
}

bool Lowerer::isFoldable(const Value *v) { return isFoldableDepth(v, 0); }

Value *Lowerer::unary(const std::string &opcode, Value *a, const Expr *at) {
  if (!a)
    return nullptr;
  Type t = a->type;
  if (t.pointer) {
    error(at, "operator '" + opcode + "' is not supported on pointers");
    return nullptr;
  }
  if (opcode == "!")
    t.elem = ElemType::known(ScalarKind::Bool);
  // `~` on a bool tile is logical not in the interpreter (int1); C++'s `~` would give true.
  if (opcode == "~" && t.elem.is(ScalarKind::Bool) && t.isTile())
    return unary("!", a, at);
  if (opcode == "~" && t.elem.isFloat()) {
    error(at, "operator '~' needs an integer operand");
    return nullptr;
  }
  if (t.isScalar() && (opcode == "-" || opcode == "~")) {
    // C++ promotes a scalar operand first: -uint8_t is an int, -half a float.
    t.elem = promoteScalars(a->type.elem, a->type.elem);
    a = castTo(a, t.elem, at);
  }
  if (a->type.elem.isFp8()) { // fp8 operators and math functions compute in float (and give float)
    a = castTo(a, arithmeticType(a->type.elem), at);
    if (opcode != "!")
      t.elem = a->type.elem;
  }
  Op *op = emit(OpKind::Unary, {a}, t, at);
  op->opcode = opcode;
  return op->result;
}

Value *Lowerer::boolMask(Value *mask, const Expr *at) {
  if (mask && !mask->type.elem.is(ScalarKind::Bool)) {
    error(at, "the mask must be bool (a comparison); write `m != 0` for a number");
    return nullptr;
  }
  return mask;
}

Value *Lowerer::castTo(Value *v, const ElemType &to, const Expr *at) {
  if (!v)
    return nullptr;
  if (v->type.pointer) {
    error(at, "cannot convert a pointer to '" + to.cuda() + "'");
    return nullptr;
  }
  if (v->type.elem == to)
    return v;
  // Fold conversions of literals so generated code reads `2.0f`, not a cast.
  if (v->def && v->def->kind == OpKind::Constant && v->uses == 0 && v->name.empty() &&
      v->type.elem.isKnown() && to.isKnown() && v->def->attrs[0].isConst()) {
    int64_t c = v->def->attrs[0].value();
    if (to.isInteger() || to.is(ScalarKind::Bool)) {
      v->type.elem = to;
      return v;
    }
    if (to.is(ScalarKind::F32) || to.is(ScalarKind::F64)) {
      v->def->attrs[0] =
          SymExpr::expr(std::to_string(c) + (to.is(ScalarKind::F32) ? ".0f" : ".0"), true);
      v->type.elem = to;
      return v;
    }
  }
  Type t = v->type;
  t.elem = to;
  return emit(OpKind::Cast, {v}, t, at)->result;
}

Callee Lowerer::resolveCallee(const Expr *e) {
  Callee c;
  e = e->IgnoreParenImpCasts();
  auto inTl = [](const DeclContext *dc) {
    for (; dc; dc = dc->getParent())
      if (auto *ns = dyn_cast<NamespaceDecl>(dc))
        if (ns->getName() == "tl" && ns->getParent()->isTranslationUnit())
          return true;
    return false;
  };
  auto isHelper = [](const FunctionDecl *fd) {
    if (!fd)
      return false;
    for (auto *a : fd->specific_attrs<AnnotateAttr>())
      if (a->getAnnotation() == "tilec.func")
        return true;
    return false;
  };
  if (auto *ule = dyn_cast<UnresolvedLookupExpr>(e)) {
    c.name = ule->getName().getAsString();
    for (const NamedDecl *d : ule->decls()) {
      const FunctionDecl *fd = nullptr;
      if (auto *ft = dyn_cast<FunctionTemplateDecl>(d))
        fd = ft->getTemplatedDecl();
      else
        fd = dyn_cast<FunctionDecl>(d);
      if (fd && inTl(fd->getDeclContext()))
        c.inTl = true;
      if (isHelper(fd) && !c.helper)
        c.helper = fd;
    }
    for (auto &a : ule->template_arguments())
      c.templateArgs.push_back(a);
    return c;
  }
  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    if (auto *fd = dyn_cast<FunctionDecl>(dre->getDecl())) {
      c.name = fd->getNameAsString();
      c.inTl = inTl(fd->getDeclContext());
      const FunctionDecl *pattern =
          fd->getPrimaryTemplate() ? fd->getPrimaryTemplate()->getTemplatedDecl() : fd;
      if (isHelper(pattern))
        c.helper = pattern;
      for (auto &a : dre->template_arguments())
        c.templateArgs.push_back(a);
    }
    return c;
  }
  return c;
}

static std::string binaryOpcode(BinaryOperatorKind k) {
  return BinaryOperator::getOpcodeStr(k).str();
}

/// A C++ literal that reads back as exactly `v` in type `t` (float: 9 digits, double: 17).
static std::string floatLiteral(double v, const ElemType &t) {
  bool isFloat = t.is(ScalarKind::F32);
  char buf[64];
  if (std::isinf(v))
    return std::string(v < 0 ? "-" : "") + "tilec::infinity<" + (isFloat ? "float" : "double") +
           ">()";
  if (std::isnan(v))
    return std::string("tilec::quiet_nan<") + (isFloat ? "float" : "double") + ">()";
  std::snprintf(buf, sizeof buf, isFloat ? "%.9g" : "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) // "3" -> "3.0"; keeps inf/nan spellings
    s += ".0";
  // Shortest form that still reads back exactly, for readability ("0.1f", not "0.100000001f").
  for (int digits = 1; digits < (isFloat ? 9 : 17); ++digits) {
    char shorter[64];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, v);
    bool exact = isFloat ? float(std::strtod(shorter, nullptr)) == float(v)
                         : std::strtod(shorter, nullptr) == v;
    if (exact) {
      s = shorter;
      if (s.find_first_of(".eEn") == std::string::npos)
        s += ".0";
      break;
    }
  }
  return isFloat ? s + "f" : s;
}

/// `x` as a constant when clang can evaluate it (a constexpr global, an enumerator, a
/// constexpr call): true with `out` its value (null after a reported error), false when `x` is
/// not a constant of arithmetic or enumeration type.
bool Lowerer::foldConstant(const Expr *x, const Expr *at, Value *&out) {
  QualType qt = x->getType();
  if (x->isValueDependent() || !(qt->isArithmeticType() || qt->isEnumeralType()))
    return false;
  Expr::EvalResult r;
  if (!x->EvaluateAsRValue(r, ctx_) || !(r.Val.isInt() || r.Val.isFloat()))
    return false;
  auto t = mapElemType(qt, x->getBeginLoc());
  if (!t)
    return true;
  if (r.Val.isInt()) {
    out = constant(SymExpr(r.Val.getInt().getExtValue()), *t, at);
    return true;
  }
  Op *op = emit(OpKind::Constant, {}, Type{*t, false, false, {}}, at);
  op->attrs.push_back(SymExpr::expr(floatLiteral(r.Val.getFloat().convertToDouble(), *t), true));
  out = op->result;
  return true;
}

Value *Lowerer::lowerExprNode(const Expr *e) {
  if (!e)
    return nullptr;
  // Look through syntax that does not change the value.
  if (auto *fe = dyn_cast<FullExpr>(e))
    return lowerExpr(fe->getSubExpr());
  if (auto *p = dyn_cast<ParenExpr>(e))
    return lowerExpr(p->getSubExpr());
  if (auto *mt = dyn_cast<MaterializeTemporaryExpr>(e))
    return lowerExpr(mt->getSubExpr());
  if (auto *bt = dyn_cast<CXXBindTemporaryExpr>(e))
    return lowerExpr(bt->getSubExpr());
  if (auto *ce = dyn_cast<CXXConstructExpr>(e)) {
    if (ce->getNumArgs() == 1 && ce->getConstructor()->isCopyOrMoveConstructor())
      return lowerExpr(ce->getArg(0));
    // `tl::half h = x;`: the storage types convert from float implicitly, as in the interpreter.
    if (ce->getNumArgs() == 1 && ce->getConstructor()->isConvertingConstructor(false))
      if (auto t = storageType(ce->getType()))
        return castTo(lowerExpr(ce->getArg(0)), *t, e);
  }
  if (auto *ic = dyn_cast<ImplicitCastExpr>(e)) {
    Value *v = lowerExpr(ic->getSubExpr());
    if (v && v->type.isScalar() && !v->type.pointer && !ic->getType()->isDependentType() &&
        ic->getType()->isArithmeticType()) {
      auto t = mapElemType(ic->getType(), ic->getBeginLoc());
      return t ? castTo(v, *t, ic) : nullptr;
    }
    return v;
  }
  if (auto *sub = dyn_cast<SubstNonTypeTemplateParmExpr>(e))
    return lowerExpr(sub->getReplacement());
  if (auto *da = dyn_cast<CXXDefaultArgExpr>(e)) // a helper's default, spelled out by clang
    return lowerExpr(da->getExpr());

  // Literals and compile-time values.
  if (auto *il = dyn_cast<IntegerLiteral>(e)) {
    auto t = mapElemType(il->getType(), il->getBeginLoc());
    // Unsigned literals keep their value: 2654435769u is not -1640531527.
    int64_t v = il->getType()->isUnsignedIntegerType() ? int64_t(il->getValue().getZExtValue())
                                                       : il->getValue().getSExtValue();
    return t ? constant(SymExpr(v), *t, e) : nullptr;
  }
  if (auto *bl = dyn_cast<CXXBoolLiteralExpr>(e))
    return constant(SymExpr::expr(bl->getValue() ? "true" : "false", true),
                    ElemType::known(ScalarKind::Bool), e);
  if (auto *fl = dyn_cast<FloatingLiteral>(e)) {
    auto t = mapElemType(fl->getType(), fl->getBeginLoc());
    if (!t)
      return nullptr;
    Op *op = emit(OpKind::Constant, {}, Type{*t, false, false, {}}, e);
    // Printed from its value, not its spelling: the spelling may be a macro.
    op->attrs.push_back(SymExpr::expr(floatLiteral(fl->getValue().convertToDouble(), *t), true));
    return op->result;
  }
  if (auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const ValueDecl *d = ref->getDecl();
    if (auto it = symBindings_.find(d); it != symBindings_.end()) {
      auto t = mapElemType(cast<NonTypeTemplateParmDecl>(d)->getType(), ref->getBeginLoc());
      return t ? constant(it->second, *t, e) : nullptr;
    }
    if (auto *nt = dyn_cast<NonTypeTemplateParmDecl>(d)) {
      auto t = mapElemType(nt->getType(), ref->getBeginLoc());
      return t ? constant(SymExpr::expr(nt->getName().str(), true), *t, e) : nullptr;
    }
    auto it = vars_.find(d);
    if (it != vars_.end())
      return it->second;
    if (auto pit = pairs_.find(d); pit != pairs_.end()) {
      std::string n = d->getNameAsString();
      if (pit->second[0]) // (null: its initializer was reported)
        error(e, "'" + n + "' holds two values: use " + n + ".first and " + n + ".second");
      return nullptr;
    }
    if (auto bit = blockPtrs_.find(d); bit != blockPtrs_.end()) {
      std::string n = d->getNameAsString();
      if (bit->second.ptr.base) // (null: its initializer was reported)
        error(e, "'" + n + "' is a block pointer: use it through tl::load(" + n + ", ...), "
                 "tl::store(" + n + ", ...) and " + n + " = tl::advance(" + n + ", {...})");
      return nullptr;
    }
    if (auto dit = descriptors_.find(d); dit != descriptors_.end()) {
      if (dit->second.base) // (null: its initializer was reported)
        error(e, "'" + d->getNameAsString() + "' is a tensor descriptor: use it through " +
                     d->getNameAsString() + ".load({...}) and .store({...}, tile) in the kernel "
                     "that makes it");
      return nullptr;
    }
    // A local without a value: its initializer failed (diagnosed already, say nothing more)
    // or produced none (a helper that returns nothing).
    if (auto *vd = dyn_cast<VarDecl>(d); (vd && vd->isLocalVarDecl()) || isa<BindingDecl>(d)) {
      if (!failed_)
        error(e, "'" + d->getNameAsString() + "' has no value: its initializer produces none");
      return nullptr;
    }
    if (rejectedDecl(d))
      return nullptr;
    // A constant from outside the kernel (a constexpr or const global, an enumerator, a
    // static data member): its value, written into the kernel, since the .cu does not have
    // the declarations of the input file.
    if (Value *v = nullptr; foldConstant(ref, e, v))
      return v;
    error(e, "'" + d->getNameAsString() +
                 "' cannot be used in a kernel (only parameters, "
                 "local variables and template parameters)");
    return nullptr;
  }

  // Operators.
  if (auto *bo = dyn_cast<BinaryOperator>(e)) {
    BinaryOperatorKind k = bo->getOpcode();
    if (bo->isAssignmentOp()) {
      lowerStmt(bo);
      auto *lhs = dyn_cast<DeclRefExpr>(bo->getLHS()->IgnoreParenImpCasts());
      return lhs && vars_.count(lhs->getDecl()) ? vars_[lhs->getDecl()] : nullptr;
    }
    if (k == BO_Comma) {
      lowerExpr(bo->getLHS());
      return lowerExpr(bo->getRHS());
    }
    Value *a = lowerExpr(bo->getLHS());
    Value *b = lowerExpr(bo->getRHS());
    return binary(binaryOpcode(k), a, b, e);
  }
  if (auto *uo = dyn_cast<UnaryOperator>(e)) {
    switch (uo->getOpcode()) {
    case UO_Plus:
      return lowerExpr(uo->getSubExpr());
    case UO_Minus:
      return unary("-", lowerExpr(uo->getSubExpr()), e);
    case UO_Not:
      return unary("~", lowerExpr(uo->getSubExpr()), e);
    case UO_LNot:
      return unary("!", lowerExpr(uo->getSubExpr()), e);
    default:
      error(e, "unary operator '" + UnaryOperator::getOpcodeStr(uo->getOpcode()).str() +
                   "' is not supported in kernels");
      return nullptr;
    }
  }
  if (auto *oc = dyn_cast<CXXOperatorCallExpr>(e)) {
    // Resolved overloaded operators (non-dependent code): map back to the operator.
    OverloadedOperatorKind ok = oc->getOperator();
    const char *spelling = getOperatorSpelling(ok);
    if (oc->isAssignmentOp()) { // `t = ...`, `t += ...` on a tile or a storage type
      lowerStmt(oc);
      auto *lhs = oc->getNumArgs() == 2
                      ? dyn_cast<DeclRefExpr>(oc->getArg(0)->IgnoreParenImpCasts())
                      : nullptr;
      return lhs && vars_.count(lhs->getDecl()) ? vars_[lhs->getDecl()] : nullptr;
    }
    if (oc->getNumArgs() == 2 && ok != OO_Call && ok != OO_Subscript) {
      // Left operand first, as for built-in operators (call arguments have no order in C++, and
      // the IR's numbering would depend on the compiler tilec was built with).
      Value *lhs = lowerExpr(oc->getArg(0));
      Value *rhs = lowerExpr(oc->getArg(1));
      return binary(spelling, lhs, rhs, e);
    }
    if (oc->getNumArgs() == 1 && (ok == OO_Minus || ok == OO_Tilde || ok == OO_Exclaim))
      return unary(spelling, lowerExpr(oc->getArg(0)), e);
    error(e, std::string("operator '") + spelling + "' is not supported in kernels");
    return nullptr;
  }
  if (auto *co = dyn_cast<ConditionalOperator>(e)) {
    Value *c = lowerExpr(co->getCond());
    // The arms' ops follow this one (tileWithScalar may insert an assert before it).
    const Op *beforeArms = k_.current().ops.empty() ? nullptr : k_.current().ops.back().get();
    Value *a = lowerExpr(co->getTrueExpr());
    Value *b = lowerExpr(co->getFalseExpr());
    if (!c || !a || !b)
      return nullptr;
    if (c->type.isTile()) {
      error(co->getCond(), "'?:' needs a scalar condition; use tl::where to select per element");
      return nullptr;
    }
    if (a->type.isTile() || b->type.isTile())
      return selectTiles(c, a, b, beforeArms, co);
    if (a->type.pointer != b->type.pointer ||
        (a->type.pointer && !(a->type.elem == b->type.elem))) {
      error(e, "'?:' needs two values, or two pointers to the same type");
      return nullptr;
    }
    Type t = a->type;
    if (!a->type.pointer)
      t.elem = promoteScalars(a->type.elem, b->type.elem);
    Value *ca = a->type.pointer ? a : castTo(a, t.elem, e);
    Value *cb = b->type.pointer ? b : castTo(b, t.elem, e);
    if (!ca || !cb)
      return nullptr;
    return emit(OpKind::Select, {c, ca, cb}, t, e)->result;
  }
  // `T(x)` where T is a template type parameter: a functional cast, which clang keeps
  // unresolved until T is known.
  if (auto *uc = dyn_cast<CXXUnresolvedConstructExpr>(e);
      uc && uc->getNumArgs() == 1 && !uc->isListInitialization() &&
      uc->getTypeAsWritten()->getAs<TemplateTypeParmType>()) {
    auto t = mapElemType(uc->getTypeAsWritten(), uc->getBeginLoc());
    Value *v = lowerExpr(uc->getArg(0));
    return t && v ? castTo(v, *t, e) : nullptr;
  }
  if (auto *ec = dyn_cast<ExplicitCastExpr>(e)) {
    auto t = mapElemType(ec->getTypeAsWritten(), ec->getBeginLoc());
    Value *v = lowerExpr(ec->getSubExprAsWritten());
    return t ? castTo(v, *t, e) : nullptr;
  }
  // `p.first` / `p.second` of a pair (tl::swizzle2d).
  if (auto *me = dyn_cast<MemberExpr>(e))
    return lowerPairMember(me->getBase(), me->getMemberDecl()->getNameAsString(), e);
  if (auto *me = dyn_cast<CXXDependentScopeMemberExpr>(e))
    return lowerPairMember(me->isImplicitAccess() ? nullptr : me->getBase(),
                           me->getMember().getAsString(), e);
  if (auto *call = dyn_cast<CallExpr>(e)) {
    const Expr *calleeExpr = call->getCallee();
    // `t.to<T>()` on a dependent tile.
    if (auto *me = dyn_cast<CXXDependentScopeMemberExpr>(calleeExpr->IgnoreParenImpCasts())) {
      if (auto r = lowerDescriptorCall(me->isImplicitAccess() ? nullptr : me->getBase(),
                                       me->getMember().getAsString(), call))
        return *r;
      if (me->getMember().getAsString() == "to" && me->getNumTemplateArgs() == 1) {
        auto t = templateArgType(me->template_arguments()[0]);
        return t ? castTo(lowerExpr(me->getBase()), *t, e) : nullptr;
      }
      error(e, "member call '" + me->getMember().getAsString() + "' is not supported");
      return nullptr;
    }
    if (auto *mc = dyn_cast<CXXMemberCallExpr>(call)) {
      auto *md = mc->getMethodDecl();
      if (md && md->getIdentifier())
        if (auto r = lowerDescriptorCall(mc->getImplicitObjectArgument(), md->getName().str(), call))
          return *r;
      // getName() is for identifiers only: conversion operators have none.
      if (md && md->getIdentifier() && md->getName() == "to" &&
          md->getTemplateSpecializationArgs()) {
        auto t =
            mapElemType(md->getTemplateSpecializationArgs()->get(0).getAsType(), e->getBeginLoc());
        return t ? castTo(lowerExpr(mc->getImplicitObjectArgument()), *t, e) : nullptr;
      }
      // `float f = h;`: the storage types' implicit `operator float`, as in the interpreter.
      if (auto *conv = dyn_cast_or_null<CXXConversionDecl>(md);
          conv && storageType(mc->getObjectType())) {
        auto t = mapElemType(conv->getConversionType(), e->getBeginLoc());
        return t ? castTo(lowerExpr(mc->getImplicitObjectArgument()), *t, e) : nullptr;
      }
    }
    Callee c = resolveCallee(calleeExpr);
    if (c.helper)
      return inlineHelper(call, c);
    if (c.inTl)
      return lowerCall(call, c);
    // Calls clang can evaluate (INFINITY is __builtin_inff(), constexpr functions).
    if (Value *v = nullptr; foldConstant(call, e, v))
      return v;
    error(e, "call to '" + (c.name.empty() ? sourceText(calleeExpr->getSourceRange()) : c.name) +
                 "' is not supported in kernels (only tl:: operations and TILEC_FUNC helpers)");
    return nullptr;
  }
  error(e, unsupported(e));
  return nullptr;
}

} // namespace tilec
