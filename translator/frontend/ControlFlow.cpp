// Scalar control flow -> structured For / If ops.
//
// Variables declared before a loop or branch and assigned inside it become carried values:
// a For's region gets them as arguments and yields their values at the end of the body; an
// If yields them from each branch. After the op, the variables name its results. Tiles are
// values, so this is how an accumulator tile travels through a loop.
//
//   auto acc = tl::zeros<float, BLOCK>();          %5:acc = splat ...
//   for (int k = 0; k < n; k += BLOCK)     ->      %9:acc = for "<" %lo, %hi, %step, %5:acc {
//     acc += tl::load(x + k + offs, ...);            ^(%k, %6:acc) ... yield %8:acc }
#include "frontend/Lowerer.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <iterator>

namespace tilec {

using namespace clang;

namespace {

/// The variables a statement assigns (=, op=, ++, --), in order of first assignment.
class AssignedVars : public RecursiveASTVisitor<AssignedVars> {
public:
  std::vector<const ValueDecl *> vars;
  void add(const Expr *lhs) {
    if (auto *ref = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts()))
      if (std::find(vars.begin(), vars.end(), ref->getDecl()) == vars.end())
        vars.push_back(ref->getDecl());
  }
  bool VisitBinaryOperator(BinaryOperator *bo) {
    if (bo->isAssignmentOp())
      add(bo->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *uo) {
    if (uo->isIncrementDecrementOp())
      add(uo->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *oc) {
    if (oc->isAssignmentOp() && oc->getNumArgs() > 0)
      add(oc->getArg(0));
    return true;
  }
};

std::vector<const ValueDecl *> assignedIn(const Stmt *s) {
  AssignedVars v;
  if (s)
    v.TraverseStmt(const_cast<Stmt *>(s));
  return v.vars;
}

} // namespace

Lowerer::Carried Lowerer::carriedBy(std::initializer_list<const Stmt *> parts) {
  Carried c;
  for (const Stmt *part : parts)
    for (const ValueDecl *assigned : assignedIn(part)) {
      std::vector<const ValueDecl *> ds = {assigned};
      addBlockPtrOffsets(assigned, part, ds); // a block pointer: its offsets change
      for (const ValueDecl *d : ds)
        if (vars_.count(d) && std::find(c.vars.begin(), c.vars.end(), d) == c.vars.end())
          c.vars.push_back(d);
    }
  for (auto *d : c.vars)
    c.inits.push_back(vars_[d]);
  return c;
}

void Lowerer::startControlFlow(Op *op, const Stmt *s, const Carried &c, std::string srcText) {
  auto &sm = ctx_.getSourceManager();
  op->loc = sm.getExpansionLoc(s->getBeginLoc());
  op->line = sm.getPresumedLineNumber(op->loc);
  op->srcText = std::move(srcText);
  for (auto *d : c.vars)
    op->carriedNames.push_back(d->getNameAsString());
}

Region *Lowerer::openRegion(Op *op, const Carried &c, bool withArgs, Value *leading) {
  op->regions.push_back(std::make_unique<Region>());
  Region *r = op->regions.back().get();
  if (leading)
    r->args.push_back(leading);
  if (withArgs)
    for (size_t i = 0; i < c.vars.size(); ++i) {
      Value *a = k_.newValue(c.inits[i]->type, c.vars[i]->getNameAsString());
      r->args.push_back(a);
      vars_[c.vars[i]] = a;
    }
  k_.insertion.push_back(r);
  return r;
}

void Lowerer::closeRegion(Region *r, const Carried &c, bool yield) {
  k_.insertion.pop_back();
  if (!yield)
    return;
  for (auto *d : c.vars) {
    r->yields.push_back(vars_[d]);
    vars_[d]->uses++;
  }
}

void Lowerer::finishControlFlow(Op *op, const Carried &c) {
  for (size_t i = 0; i < c.vars.size(); ++i) {
    Value *res = k_.newValue(c.inits[i]->type, c.vars[i]->getNameAsString());
    op->results.push_back(res);
    vars_[c.vars[i]] = res;
  }
}

void Lowerer::lowerIf(const IfStmt *s) {
  if (s->getInit() || s->getConditionVariable()) {
    error(s, "'if' with an initializer or a declaration is not supported in kernels");
    return;
  }
  std::string constexprCond;
  Value *cond = nullptr;
  if (s->isConstexpr()) {
    constexprCond = constexprConditionText(s->getCond());
  } else {
    cond = lowerExpr(s->getCond());
    if (!cond)
      return;
    if (cond->type.isTile()) {
      error(s->getCond(), "'if' needs a scalar condition; use tl::where to select between tiles");
      return;
    }
  }
  // The carried variables: those of the enclosing scope either branch assigns.
  Carried c = carriedBy({s->getThen(), s->getElse()});
  std::vector<Value *> operands;
  if (cond)
    operands.push_back(cond);
  operands.insert(operands.end(), c.inits.begin(), c.inits.end());
  Op *op = emit(OpKind::If, operands, Type{}, nullptr, /*hasResult=*/false);
  startControlFlow(op, s, c, "if (" + sourceText(s->getCond()->getSourceRange()) + ")");
  op->constexprCond = constexprCond;
  for (const Stmt *branch : {s->getThen(), s->getElse()}) {
    Region *r = openRegion(op, c, /*withArgs=*/false);
    lowerStmt(branch);
    closeRegion(r, c, /*yield=*/true);
    for (size_t i = 0; i < c.vars.size(); ++i)
      vars_[c.vars[i]] = c.inits[i]; // the other branch starts from the same values
  }
  finishControlFlow(op, c);
}

/// tl::range's last argument when it is loop options: a braced list (or
/// tl::range_options{...}), as written (designators kept).
static const InitListExpr *rangeOptionsList(const Expr *e) {
  e = e->IgnoreImplicit();
  if (auto *cast = dyn_cast<CXXFunctionalCastExpr>(e))
    e = cast->getSubExpr()->IgnoreImplicit();
  if (auto *copy = dyn_cast<CXXConstructExpr>(e); copy && copy->getNumArgs() == 1)
    e = copy->getArg(0)->IgnoreImplicit();
  auto *list = dyn_cast<InitListExpr>(e);
  if (list && list->isSemanticForm() && list->getSyntacticForm())
    list = list->getSyntacticForm();
  return list;
}

bool Lowerer::lowerLoopOptions(const Expr *options, Op *loop) {
  // tl::range_options' fields, in declaration order (runtime/include/tilec/tl/range.h).
  static const char *const kFields[] = {"warp_specialize", "num_stages", "loop_unroll_factor",
                                        "disallow_acc_multi_buffer", "flatten"};
  const InitListExpr *list = rangeOptionsList(options);
  size_t next = 0;
  for (const Expr *init : list->inits()) {
    std::string field;
    const Expr *value = init;
    if (auto *d = dyn_cast<DesignatedInitExpr>(init)) {
      if (d->size() != 1 || !d->getDesignator(0)->isFieldDesignator()) {
        error(init, "loop options name one field each: {.num_stages = 3}");
        return false;
      }
      field = d->getDesignator(0)->getFieldName()->getName().str();
      value = d->getInit();
    } else if (next < std::size(kFields)) {
      field = kFields[next];
    }
    auto at = std::find_if(std::begin(kFields), std::end(kFields),
                           [&](const char *f) { return field == f; });
    if (at == std::end(kFields)) {
      error(init, "unknown loop option; tl::range_options has warp_specialize, num_stages, "
                  "loop_unroll_factor, disallow_acc_multi_buffer and flatten");
      return false;
    }
    next = size_t(at - std::begin(kFields)) + 1;
    std::optional<SymExpr> v = evalSym(value);
    if (!v) {
      error(value, "loop option '" + field +
                       "' must be a compile-time integer (a literal or a template parameter)");
      return false;
    }
    if (v->isConst() && v->value() < 0) {
      error(value, "loop option '" + field + "' must not be negative");
      return false;
    }
    if (field == "warp_specialize") {
      if (!v->isConst()) {
        error(value, "warp_specialize must be true or false here (tilec decides it once for "
                     "every specialization)");
        return false;
      }
      loop->noWarpSpecialize = v->value() == 0;
    } else if (field == "num_stages" && !v->isConst(0)) {
      if (loopStages_ && !loopStages_->first.sameAs(*v)) {
        error(value, "this kernel's loops ask for different num_stages (" + v->str() + " here, " +
                         loopStages_->first.str() +
                         " before): tilec pipelines every loop of a kernel with one stage count");
        return false;
      }
      loopStages_ = {{*v, value->getExprLoc()}};
      loop->loopStages = *v;
    } else if (field == "loop_unroll_factor") {
      loop->unrollFactor = *v;
    }
    // disallow_acc_multi_buffer and flatten: accepted; tilec never multi-buffers an
    // accumulator, and does not flatten nested loops.
  }
  return true;
}

void Lowerer::lowerFor(const Stmt *s) {
  const VarDecl *iv = nullptr;
  const Expr *options = nullptr;
  Value *lo = nullptr, *hi = nullptr, *step = nullptr;
  std::string cmp = "<";
  bool unrolled = false;
  const Stmt *body = nullptr;

  if (auto *fs = dyn_cast<ForStmt>(s)) {
    // for (int i = lo; i CMP hi; i += step / i++ / i -= step / i--)
    auto *init = dyn_cast_or_null<DeclStmt>(fs->getInit());
    // The condition is a BinaryOperator, or an operator call when its bound is a dependent
    // call (`k < tl::cdiv(K, BLOCK_K)` in a template).
    const Expr *condLhs = nullptr, *condRhs = nullptr;
    const Expr *condExpr = fs->getCond() ? fs->getCond()->IgnoreImplicit() : nullptr;
    if (auto *bo = dyn_cast_or_null<BinaryOperator>(condExpr);
        bo && bo->isComparisonOp() && bo->getOpcode() != BO_EQ) {
      condLhs = bo->getLHS(), condRhs = bo->getRHS();
      cmp = BinaryOperator::getOpcodeStr(bo->getOpcode()).str();
    } else if (auto *oc = dyn_cast_or_null<CXXOperatorCallExpr>(condExpr);
               oc && oc->getNumArgs() == 2) {
      BinaryOperatorKind k = BinaryOperator::getOverloadedOpcode(oc->getOperator());
      if (oc->isComparisonOp() && k != BO_EQ) {
        condLhs = oc->getArg(0), condRhs = oc->getArg(1);
        cmp = BinaryOperator::getOpcodeStr(k).str();
      }
    }
    if (!init || !init->isSingleDecl() || !condLhs || !fs->getInc()) {
      error(s, "loops must have the form 'for (int i = lo; i < hi; i += step)'");
      return;
    }
    iv = dyn_cast<VarDecl>(init->getSingleDecl());
    auto *condVar = dyn_cast<DeclRefExpr>(condLhs->IgnoreParenImpCasts());
    if (!iv || !iv->hasInit() || !condVar || condVar->getDecl() != iv) {
      error(s, "loops must have the form 'for (int i = lo; i < hi; i += step)'");
      return;
    }
    lo = lowerExpr(iv->getInit());
    hi = lowerExpr(condRhs);
    const Expr *inc = fs->getInc()->IgnoreParenImpCasts();
    bool negate = false;
    if (auto *uo = dyn_cast<UnaryOperator>(inc); uo && uo->isIncrementDecrementOp()) {
      step = constant(1, ElemType::known(ScalarKind::I32), uo);
      negate = uo->isDecrementOp();
    } else if (auto *ca = dyn_cast<CompoundAssignOperator>(inc);
               ca && (ca->getOpcode() == BO_AddAssign || ca->getOpcode() == BO_SubAssign)) {
      step = lowerExpr(ca->getRHS());
      negate = ca->getOpcode() == BO_SubAssign;
    } else {
      error(fs->getInc(), "the loop step must be 'i++', 'i--', 'i += step' or 'i -= step'");
      return;
    }
    if (negate && step)
      step = unary("-", step, inc);
    body = fs->getBody();
  } else {
    // for (int i : tl::range(lo, hi[, step])) / tl::static_range<LO, HI[, STEP]>()
    auto *rf = cast<CXXForRangeStmt>(s);
    iv = rf->getLoopVariable();
    body = rf->getBody();
    const Expr *init = rf->getRangeInit()->IgnoreImplicit();
    if (auto *call = dyn_cast<CallExpr>(init)) {
      Callee c = resolveCallee(call->getCallee());
      unsigned nargs = call->getNumArgs();
      // Triton's keyword arguments come last, as a braced tl::range_options.
      if (nargs > 0 && rangeOptionsList(call->getArg(nargs - 1)))
        options = call->getArg(--nargs);
      if (!c.inTl || c.name != "range" || nargs < 1 || nargs > 3) {
        error(init, "range-for loops must iterate over tl::range(...) or tl::static_range<...>()");
        return;
      }
      if (nargs == 1) {
        lo = constant(0, ElemType::known(ScalarKind::I32), call);
        hi = lowerExpr(call->getArg(0));
      } else {
        lo = lowerExpr(call->getArg(0));
        hi = lowerExpr(call->getArg(1));
      }
      step = nargs == 3 ? lowerExpr(call->getArg(2))
                        : constant(1, ElemType::known(ScalarKind::I32), call);
    } else {
      // tl::static_range<LO, HI, STEP>(): read the template arguments off the type.
      QualType t = init->getType();
      const TemplateSpecializationType *ts = t->getAs<TemplateSpecializationType>();
      auto *td = ts ? ts->getTemplateName().getAsTemplateDecl() : nullptr;
      if (!td || td->getName() != "static_range" || ts->template_arguments().size() < 2) {
        error(init, "range-for loops must iterate over tl::range(...) or tl::static_range<...>()");
        return;
      }
      auto argSym = [&](const TemplateArgument &a) -> std::optional<SymExpr> {
        if (a.getKind() == TemplateArgument::Integral)
          return SymExpr(a.getAsIntegral().getExtValue());
        if (a.getKind() == TemplateArgument::Expression)
          return evalSym(a.getAsExpr());
        return std::nullopt;
      };
      auto args = ts->template_arguments();
      auto l = argSym(args[0]), h = argSym(args[1]);
      auto st = args.size() > 2 ? argSym(args[2]) : std::optional<SymExpr>(SymExpr(1));
      if (!l || !h || !st) {
        error(init, "tl::static_range bounds must be compile-time integers");
        return;
      }
      lo = constant(*l, ElemType::known(ScalarKind::I32), init);
      hi = constant(*h, ElemType::known(ScalarKind::I32), init);
      step = constant(*st, ElemType::known(ScalarKind::I32), init);
      unrolled = true;
    }
  }
  if (!iv || !lo || !hi || !step)
    return;
  auto ivType = mapElemType(iv->getType(), iv->getLocation());
  if (!ivType || !ivType->isInteger()) {
    error(iv->getLocation(), "the loop variable must be an integer");
    return;
  }
  if (lo->type.isTile() || hi->type.isTile() || step->type.isTile()) {
    error(s, "loop bounds must be scalars");
    return;
  }
  for (const ValueDecl *d : assignedIn(body))
    if (d == iv) {
      error(iv->getLocation(), "the loop variable must not be assigned in the loop body");
      return;
    }
  lo = castTo(lo, *ivType, nullptr);
  hi = castTo(hi, *ivType, nullptr);
  step = castTo(step, *ivType, nullptr);

  Carried c = carriedBy({body});
  std::vector<Value *> operands = {lo, hi, step};
  operands.insert(operands.end(), c.inits.begin(), c.inits.end());
  Op *op = emit(OpKind::For, operands, Type{}, nullptr, /*hasResult=*/false);
  SourceLocation rparen =
      isa<ForStmt>(s) ? cast<ForStmt>(s)->getRParenLoc() : cast<CXXForRangeStmt>(s)->getRParenLoc();
  startControlFlow(op, s, c, sourceText(SourceRange(s->getBeginLoc(), rparen)));
  op->opcode = cmp;
  op->unrolled = unrolled;
  if (options && !lowerLoopOptions(options, op))
    return;
  Value *ivValue = k_.newValue(Type{*ivType, false, false, {}}, iv->getNameAsString());
  Region *r = openRegion(op, c, /*withArgs=*/true, ivValue);
  vars_[iv] = ivValue;
  lowerStmt(body);
  closeRegion(r, c, /*yield=*/true);
  finishControlFlow(op, c);
}

void Lowerer::lowerWhile(const WhileStmt *s) {
  if (s->getConditionVariable()) {
    error(s, "'while' with a declaration in its condition is not supported in kernels");
    return;
  }
  Carried c = carriedBy({s->getBody(), s->getCond()});
  Op *op = emit(OpKind::While, c.inits, Type{}, nullptr, /*hasResult=*/false);
  startControlFlow(op, s, c, "while (" + sourceText(s->getCond()->getSourceRange()) + ")");
  // Both regions start from the carried values of the iteration.
  Region *cond = openRegion(op, c, /*withArgs=*/true);
  Value *cv = lowerExpr(s->getCond());
  if (cv && cv->type.isTile()) {
    error(s->getCond(), "'while' needs a scalar condition");
    cv = nullptr;
  }
  if (cv) {
    cond->yields.push_back(cv);
    cv->uses++;
  }
  closeRegion(cond, c, /*yield=*/false);
  Region *body = openRegion(op, c, /*withArgs=*/true);
  lowerStmt(s->getBody());
  closeRegion(body, c, /*yield=*/true);
  finishControlFlow(op, c);
}

} // namespace tilec
