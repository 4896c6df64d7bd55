// tl:: operations -> tile IR, and inlining of TILEC_FUNC helpers.
#include "frontend/Lowerer.h"

#include <algorithm>

#include <clang/AST/DeclTemplate.h>

#include <set>

namespace tilec {

using namespace clang;

namespace {
const std::set<std::string> kFloatMath = {
    "exp",   "exp2", "log",   "log2",  "sqrt",  "rsqrt", "sin",   "cos",   "tanh",
    "erf",   "sigmoid", "floor", "ceil", "sqrt_rn", "tan", "asin", "acos", "atan",
    "sinh",  "cosh", "asinh", "acosh", "atanh", "log10", "log1p", "expm1", "erfc",
    "trunc", "rint"};
const std::set<std::string> kBinaryFns = {"maximum", "minimum", "cdiv", "umulhi", "div_rn",
                                          "fdiv",    "pow",     "atan2", "hypot"};
/// Two-operand functions of floats only.
const std::set<std::string> kFloatBinaryFns = {"pow", "atan2", "hypot"};
} // namespace

unsigned Lowerer::givenArgs(const CallExpr *call) {
  // Calls in non-template kernels are resolved and spell out the header's default arguments
  // (store's `mask = true`); the translator applies its own defaults.
  unsigned n = call->getNumArgs();
  while (n > 0 && isa<CXXDefaultArgExpr>(call->getArg(n - 1)))
    --n;
  return n;
}

bool Lowerer::wantArgs(const CallExpr *call, const Callee &c, unsigned lo, unsigned hi) {
  unsigned n = givenArgs(call);
  if (n >= lo && n <= hi)
    return true;
  std::string count =
      lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
  error(call, "tl::" + c.name + " takes " + count + (hi == 1 ? " argument, " : " arguments, ") +
                  std::to_string(n) + " given");
  return false;
}

bool Lowerer::wantTemplateArgCount(const CallExpr *call, const Callee &c, size_t count) {
  if (c.templateArgs.size() == count)
    return true;
  error(call, "tl::" + c.name + " takes " + std::to_string(count) + " template argument" +
                  (count == 1 ? "" : "s"));
  return false;
}

Value *Lowerer::lowerCall(const CallExpr *call, const Callee &c) {
  const std::string &n = c.name;
  unsigned nargs = givenArgs(call);
  auto arg = [&](unsigned i) { return lowerExpr(call->getArg(i)); };
  auto want = [&](unsigned lo, unsigned hi) { return wantArgs(call, c, lo, hi); };
  auto wantTemplateArgs = [&](size_t count) { return wantTemplateArgCount(call, c, count); };
  const Type scalarInt{ElemType::known(ScalarKind::I32), false, false, {}};
  if (n == "load" || n == "store" || n == "advance" || n == "make_block_ptr")
    if (auto r = lowerBlockPtrCall(call, c))
      return *r;
  if (n != "load" && n != "store" && !rejectMisplacedHints(call, n))
    return nullptr;

  if (n == "program_id" || n == "num_programs") {
    if (!want(1, 1))
      return nullptr;
    auto axis = evalSym(call->getArg(0));
    if (!axis || !axis->isConst() || axis->value() < 0 || axis->value() > 2) {
      error(call->getArg(0), "the axis must be the constant 0, 1 or 2");
      return nullptr;
    }
    Op *op = emit(n == "program_id" ? OpKind::ProgramId : OpKind::NumPrograms, {}, scalarInt, call);
    op->axis = int(axis->value());
    return op->result;
  }
  if (n == "arange") {
    if (!want(0, 0) || !wantTemplateArgs(2))
      return nullptr;
    auto lo = templateArgSym(c.templateArgs[0]), hi = templateArgSym(c.templateArgs[1]);
    if (!lo || !hi)
      return nullptr;
    SymExpr size = *hi - *lo;
    // `arange<BLOCK, 0>`: the bounds swapped; no positive START gives a tile.
    if (hi->isConst() && hi->value() <= 0 && !lo->isConst()) {
      error(call, "tl::arange<" + lo->str() + ", " + hi->str() + "> ends before it starts; " +
                      "the bounds are <START, END>: tl::arange<" + hi->str() + ", " + lo->str() +
                      ">");
      return nullptr;
    }
    if (size.isConst() && (size.value() <= 0 || (size.value() & (size.value() - 1)))) {
      error(call, "tl::arange size must be a positive power of two, got " + size.str());
      return nullptr;
    }
    Type t = scalarInt;
    t.shape = {size};
    Op *op = emit(OpKind::Arange, {}, t, call);
    op->attrs = {*lo, *hi};
    return op->result;
  }
  if (n == "zeros" || n == "full") {
    if (!want(n == "zeros" ? 0 : 1, n == "zeros" ? 0 : 1) || c.templateArgs.size() < 2) {
      if (c.templateArgs.size() < 2)
        error(call, "tl::" + n + " needs an element type and a shape: tl::" + n + "<T, N>(...)");
      return nullptr;
    }
    auto et = templateArgType(c.templateArgs[0]);
    if (!et)
      return nullptr;
    Type t{*et, false, false, {}};
    for (size_t i = 1; i < c.templateArgs.size(); ++i) {
      auto d = templateArgSym(c.templateArgs[i]);
      if (!d)
        return nullptr;
      t.shape.push_back(*d);
    }
    if (t.shape.size() > 3) {
      error(call, "tiles have rank 1 to 3");
      return nullptr;
    }
    Value *v = n == "zeros" ? constant(0, *et, call) : castTo(arg(0), *et, call);
    if (!v)
      return nullptr;
    return emit(OpKind::Splat, {v}, t, call)->result;
  }
  if (n == "zeros_like" || n == "full_like") {
    if (!want(n == "zeros_like" ? 1 : 2, n == "zeros_like" ? 1 : 2))
      return nullptr;
    Value *like = arg(0);
    if (!like)
      return nullptr;
    Value *v = n == "zeros_like" ? constant(0, like->type.elem, call)
                                 : castTo(arg(1), like->type.elem, call);
    if (!v)
      return nullptr;
    Type t = like->type;
    return emit(OpKind::Splat, {v}, t, call)->result;
  }
  if (isShapeOpName(n))
    return lowerShapeOp(call, c);
  if (isIndexedOpName(n))
    return lowerIndexedOp(call, c);
  if (isDebugOpName(n)) {
    lowerDebugOp(call, c);
    return nullptr;
  }
  if (n == "dot")
    return lowerDot(call, c);
  if (n == "inline_asm_elementwise")
    return lowerInlineAsm(call, c);
  if (n == "swizzle2d" || n == "split") { // a pair: PairOps.cpp lowers it where it is taken apart
    std::string how = "`auto [i, j] = tl::" + n + "(...)`";
    error(call,
          "tl::" + n + " returns two values: take them apart with " + how + " or .first/.second");
    return nullptr;
  }
  // Trailing cache hints are not operands: they go on the op.
  AccessHints hints;
  if ((n == "load" || n == "store") && !peelAccessHints(call, n, nargs, hints))
    return nullptr;
  auto wantOperands = [&](unsigned lo, unsigned hi) {
    if (nargs >= lo && nargs <= hi)
      return true;
    error(call, "tl::" + n + " takes " + std::to_string(lo) + " to " + std::to_string(hi) +
                    " arguments" + (hints.given ? " before its cache hints, " : ", ") +
                    std::to_string(nargs) + " given");
    return false;
  };
  if (n == "load") {
    if (!wantOperands(1, 3))
      return nullptr;
    Value *ptrs = arg(0);
    Value *mask = nargs > 1 ? arg(1) : nullptr;
    Value *other = nargs > 2 ? arg(2) : nullptr;
    if (!ptrs || (nargs > 1 && !mask) || (nargs > 2 && !other))
      return nullptr;
    if (!ptrs->type.pointer) {
      error(call->getArg(0), "tl::load needs a pointer or a tile of pointers");
      return nullptr;
    }
    Type t{ptrs->type.elem, false, false, ptrs->type.shape};
    std::vector<Value *> ops = {ptrs};
    if (mask) {
      if (!boolMask(mask, call->getArg(1)))
        return nullptr;
      if (mask->type.isTile() && !sameShape(mask->type.shape, t.shape)) {
        mask = broadcastTo(mask, t.shape, call->getArg(1)); // a [M, 1] mask covers its rows
        if (!mask)
          return nullptr;
      }
      ops.push_back(mask);
    }
    if (other) {
      other = castTo(other, t.elem, call->getArg(2));
      if (!other)
        return nullptr;
      ops.push_back(other);
    }
    Op *load = emit(OpKind::Load, ops, t, call);
    load->opcode = hints.eviction;
    load->cache = hints.cache;
    load->isVolatile = hints.isVolatile;
    return load->result;
  }
  if (n == "store") {
    if (!wantOperands(2, 3))
      return nullptr;
    Value *ptrs = arg(0);
    Value *val = arg(1);
    Value *mask = nargs > 2 ? arg(2) : nullptr;
    if (!ptrs || !val || (nargs > 2 && !mask))
      return nullptr;
    if (!ptrs->type.pointer || ptrs->type.pointeeConst) {
      error(call->getArg(0), "tl::store needs a pointer (to non-const) or a tile of them");
      return nullptr;
    }
    if (val->type.isTile() && !sameShape(val->type.shape, ptrs->type.shape)) {
      if (val->type.shape.size() == ptrs->type.shape.size() && ptrs->type.shape.size() == 1) {
        error(call->getArg(1),
              "value shape " + val->type.shapeStr() + " differs from " + ptrs->type.shapeStr());
        return nullptr;
      }
      val = broadcastTo(val, ptrs->type.shape, call->getArg(1));
      if (!val)
        return nullptr;
    }
    if (mask && !boolMask(mask, call->getArg(2)))
      return nullptr;
    if (mask && mask->type.isTile() && !sameShape(mask->type.shape, ptrs->type.shape)) {
      mask = broadcastTo(mask, ptrs->type.shape, call->getArg(2));
      if (!mask)
        return nullptr;
    }
    if (val->type.pointer) {
      error(call->getArg(1), "storing pointers is not supported");
      return nullptr;
    }
    val = castTo(val, ptrs->type.elem, call->getArg(1));
    if (val && val->type.isScalar() && ptrs->type.isTile())
      val = emit(OpKind::Splat, {val}, Type{val->type.elem, false, false, ptrs->type.shape}, call)
                ->result;
    if (!val)
      return nullptr;
    std::vector<Value *> ops = {ptrs, val};
    if (mask)
      ops.push_back(mask);
    Op *store = emit(OpKind::Store, ops, Type{}, call, /*hasResult=*/false);
    store->opcode = hints.eviction;
    store->cache = hints.cache;
    return nullptr;
  }
  if (n == "where") {
    if (!want(3, 3))
      return nullptr;
    Value *cnd = arg(0);
    Value *a = arg(1);
    Value *b = arg(2);
    if (!cnd || !a || !b)
      return nullptr;
    if (!broadcastPair(a, b, call) || !broadcastPair(cnd, a, call) || !broadcastPair(cnd, b, call))
      return nullptr;
    Type t = a->type.isTile() ? a->type : b->type;
    if (cnd->type.isTile())
      t.shape = cnd->type.shape;
    if (!a->type.pointer)
      t.elem = a->type.isTile() && b->type.isTile() ? promoteTiles(a->type.elem, b->type.elem)
               : a->type.isTile()                   ? tileWithScalar(a->type.elem, b->type.elem, call)
               : b->type.isTile()                   ? tileWithScalar(b->type.elem, a->type.elem, call)
                                                    : promoteScalars(a->type.elem, b->type.elem);
    if (a->type.pointer != b->type.pointer ||
        (a->type.pointer && !(a->type.elem == b->type.elem))) {
      error(call, "tl::where needs two values, or two pointers to the same type");
      return nullptr;
    }
    // Pointers are selected as they are; values convert to the promoted type.
    Value *ca = a->type.pointer ? a : castTo(a, t.elem, call);
    Value *cb = b->type.pointer ? b : castTo(b, t.elem, call);
    if (!ca || !cb)
      return nullptr;
    return emit(OpKind::Select, {cnd, ca, cb}, t, call)->result;
  }
  if (kBinaryFns.count(n)) {
    if (!want(2, 2))
      return nullptr;
    bool division = n == "div_rn" || n == "fdiv";
    // Shape/type inference as for '+' ('/' for the divisions, which compute halves in float).
    Value *r = binary(division ? "/" : "+", arg(0), arg(1), call);
    if (!r)
      return nullptr;
    if ((n == "cdiv" || n == "umulhi") && !r->type.elem.isInteger()) {
      error(call, "tl::" + n + " needs integer operands");
      return nullptr;
    }
    if ((division || kFloatBinaryFns.count(n)) && r->type.elem.isKnown() &&
        !r->type.elem.isFloat()) {
      error(call, "tl::" + n + " needs floating-point operands (use tl::cast)");
      return nullptr;
    }
    // div_rn is the exact division, C++'s `/`.
    r->def->opcode = n == "div_rn" ? "/" : n;
    return r;
  }
  if (kFloatMath.count(n) || n == "abs") {
    if (!want(1, 1))
      return nullptr;
    Value *v = arg(0);
    if (!v)
      return nullptr;
    if (n != "abs" && !v->type.elem.isFloat() && v->type.elem.isKnown()) {
      error(call->getArg(0), "tl::" + n + " needs a floating-point operand (use tl::cast)");
      return nullptr;
    }
    return unary(n, v, call);
  }
  if (n == "fma" || n == "clamp") {
    if (!want(3, 3))
      return nullptr;
    Value *a = arg(0);
    Value *b = arg(1);
    Value *d = arg(2);
    if (!a || !b || !d || !broadcastPair(a, b, call) || !broadcastPair(a, d, call))
      return nullptr;
    Type t = a->type.isTile() ? a->type : (b->type.isTile() ? b->type : d->type);
    t.elem = arithmeticType(t.elem); // fp8 computes in float
    Value *ca = castTo(a, t.elem, call);
    Value *cb = castTo(b, t.elem, call);
    Value *cd = castTo(d, t.elem, call);
    if (!ca || !cb || !cd)
      return nullptr;
    Op *op = emit(OpKind::Ternary, {ca, cb, cd}, t, call);
    op->opcode = n;
    return op->result;
  }
  if (n == "cast" || n == "bitcast") {
    if (!want(1, 1) || !wantTemplateArgs(1))
      return nullptr;
    auto t = templateArgType(c.templateArgs[0]);
    Value *v = arg(0);
    if (!t || !v)
      return nullptr;
    if (n == "cast")
      return castTo(v, *t, call);
    if (t->bits() && v->type.elem.bits() && t->bits() != v->type.elem.bits()) {
      error(call, "tl::bitcast between types of different sizes");
      return nullptr;
    }
    Type rt = v->type;
    rt.elem = *t;
    return emit(OpKind::Bitcast, {v}, rt, call)->result;
  }
  if (n == "multiple_of" || n == "max_contiguous") {
    if (!want(1, 1) || !wantTemplateArgs(1))
      return nullptr;
    auto amount = templateArgSym(c.templateArgs[0]);
    Value *v = arg(0);
    if (!amount || !v)
      return nullptr;
    Op *op = emit(OpKind::Hint, {v}, v->type, call);
    op->opcode = n;
    op->attrs = {*amount};
    return op->result;
  }
  if (n == "assume") {
    if (!want(1, 1))
      return nullptr;
    arg(0); // a hint only; the condition is not used for analysis yet
    return nullptr;
  }
  if (Value *v = lowerTileOp(call, c); v || failed_ || isTileOpName(n))
    return v;
  // What to write instead, where the vocabulary has a near spelling.
  std::string instead;
  if (n == "rand4x" || n == "randn4x" || n == "randint4x")
    instead = "; call tl::" + n.substr(0, n.size() - 2) +
              " once per value, with offsets that differ per value (4 * offs + k): the values "
              "are then not those of tl::" + n;
  error(call, "tl::" + n + " is not supported by the translator yet" + instead);
  return nullptr;
}

/// Binds a helper's parameters for the duration of its inlining.
struct HelperScope {
  Lowerer &l;
  std::vector<Value *> returns;
  std::vector<Value *> *savedSlot;
  HelperScope(Lowerer &lw, const FunctionDecl *fd) : l(lw), savedSlot(lw.returnSlot_) {
    l.returnSlot_ = &returns;
    l.inlineDepth_++;
    l.inlining_.push_back(fd->getCanonicalDecl());
  }
  ~HelperScope() {
    l.returnSlot_ = savedSlot;
    l.inlineDepth_--;
    l.inlining_.pop_back();
  }
};

bool Lowerer::helperNestingOk(const FunctionDecl *fd, const Expr *at) {
  // Helpers are inlined: a call back into one being inlined would never end.
  auto it = std::find(inlining_.begin(), inlining_.end(), fd->getCanonicalDecl());
  if (it != inlining_.end()) {
    std::string cycle;
    for (; it != inlining_.end(); ++it)
      cycle += (*it)->getNameAsString() + " -> ";
    error(at, "TILEC_FUNC '" + fd->getNameAsString() + "' calls itself (" + cycle +
                  fd->getNameAsString() + "): helpers are inlined into the kernel, so they " +
                  "cannot recurse; write the recursion as a loop");
    return false;
  }
  if (inlineDepth_ >= kMaxHelperNesting) {
    error(at, "TILEC_FUNC helpers nest more than " + std::to_string(kMaxHelperNesting) +
                  " calls deep; merge some of them");
    return false;
  }
  return true;
}

Value *Lowerer::inlineHelper(const CallExpr *call, const Callee &c) {
  const FunctionDecl *fd = c.helper;
  if (!helperNestingOk(fd, call))
    return nullptr;
  // The definition, not a declaration before it: its parameters are those its body uses.
  const FunctionDecl *def = nullptr;
  if (!fd->hasBody(def)) {
    error(call, "TILEC_FUNC '" + fd->getNameAsString() + "' has no body");
    return nullptr;
  }
  fd = def;
  // Dependent calls leave out defaulted arguments (resolved calls spell them out).
  unsigned given = call->getNumArgs();
  if (given > fd->getNumParams() ||
      (given < fd->getNumParams() && !fd->getParamDecl(given)->hasDefaultArg())) {
    error(call, "TILEC_FUNC '" + fd->getNameAsString() + "' takes " +
                    std::to_string(fd->getNumParams()) + " arguments");
    return nullptr;
  }
  std::vector<Value *> args;
  for (unsigned i = 0; i < fd->getNumParams(); ++i) {
    Value *v = lowerExpr(i < given ? call->getArg(i) : fd->getParamDecl(i)->getDefaultArg());
    if (!v)
      return nullptr;
    args.push_back(v);
  }
  // Template helpers: their parameters take the values deduced here while the body is
  // lowered (nested helpers save and restore the bindings).
  auto savedSyms = symBindings_;
  auto savedTypes = typeBindings_;
  auto savedParams = helperParams_;
  helperParams_ = nullptr;
  Value *result = nullptr;
  if (bindHelperTemplate(fd, c, args, call))
    result = inlineBody(fd, args, call);
  symBindings_ = savedSyms;
  typeBindings_ = savedTypes;
  helperParams_ = savedParams;
  return result;
}

bool Lowerer::bindHelperTemplate(const FunctionDecl *fd, const Callee &c,
                                 const std::vector<Value *> &args, const Expr *at) {
  const FunctionTemplateDecl *ft = fd->getDescribedFunctionTemplate();
  if (!ft) {
    if (!c.templateArgs.empty()) {
      error(at, "'" + fd->getNameAsString() + "' is not a template");
      return false;
    }
    return true;
  }
  const TemplateParameterList *params = ft->getTemplateParameters();
  helperParams_ = params;
  // Explicit arguments first, in order.
  for (size_t i = 0; i < c.templateArgs.size() && i < params->size(); ++i) {
    const NamedDecl *p = params->getParam(unsigned(i));
    if (isa<TemplateTypeParmDecl>(p)) {
      auto t = templateArgType(c.templateArgs[i]);
      if (!t)
        return false;
      typeBindings_[p] = *t;
    } else {
      auto v = templateArgSym(c.templateArgs[i]);
      if (!v)
        return false;
      symBindings_[p] = *v;
    }
  }
  // Then from the arguments: `tl::tile<T, N...>`, `T*`, `T` parameters.
  auto bindType = [&](QualType pt, const Value *arg) {
    pt = pt.getNonReferenceType().getUnqualifiedType();
    if (pt->isPointerType())
      pt = pt->getPointeeType().getUnqualifiedType();
    if (auto *tt = pt->getAs<TemplateTypeParmType>()) {
      if (auto *d = templateParamDecl(tt); d && !typeBindings_.count(d))
        typeBindings_[d] = arg->type.elem;
      return;
    }
    auto *ts = pt->getAs<TemplateSpecializationType>();
    auto *td = ts ? ts->getTemplateName().getAsTemplateDecl() : nullptr;
    if (!td || td->getName() != "tile" || !arg->type.isTile())
      return;
    auto targs = ts->template_arguments();
    for (size_t i = 0; i < targs.size(); ++i) {
      const TemplateArgument &ta = targs[i];
      if (i == 0 && ta.getKind() == TemplateArgument::Type) {
        if (auto *tt = ta.getAsType()->getAs<TemplateTypeParmType>())
          if (auto *d = templateParamDecl(tt); d && !typeBindings_.count(d))
            typeBindings_[d] = arg->type.elem;
      } else if (i > 0 && i - 1 < arg->type.shape.size() &&
                 ta.getKind() == TemplateArgument::Expression) {
        if (auto *ref = dyn_cast<DeclRefExpr>(ta.getAsExpr()->IgnoreParenImpCasts()))
          if (isa<NonTypeTemplateParmDecl>(ref->getDecl()) && !symBindings_.count(ref->getDecl()))
            symBindings_[ref->getDecl()] = arg->type.shape[i - 1];
      }
    }
  };
  for (unsigned i = 0; i < fd->getNumParams() && i < args.size(); ++i)
    bindType(fd->getParamDecl(i)->getType(), args[i]);
  for (const NamedDecl *p : *params)
    if (!symBindings_.count(p) && !typeBindings_.count(p)) {
      error(at, "cannot deduce template parameter '" + p->getNameAsString() + "' of '" +
                    fd->getNameAsString() + "'; give it explicitly");
      return false;
    }
  return true;
}

Value *Lowerer::inlineBody(const FunctionDecl *fd, const std::vector<Value *> &args,
                           const Expr *at) {
  if (!helperNestingOk(fd, at))
    return nullptr;
  for (const ParmVarDecl *p : fd->parameters())
    if (!checkVarDecl(p, VarRole::HelperParam))
      return nullptr;
  HelperScope scope(*this, fd);
  for (unsigned i = 0; i < fd->getNumParams() && i < args.size(); ++i)
    vars_[fd->getParamDecl(i)] = args[i];
  lowerStmt(fd->getBody());
  if (scope.returns.size() > 1) {
    error(at, "TILEC_FUNC helpers must have a single return statement at the end");
    return nullptr;
  }
  return scope.returns.empty() ? nullptr : scope.returns[0];
}

} // namespace tilec
