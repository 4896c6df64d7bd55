// Reads the TILEC_AUTOTUNE declarations of the main file: variables annotated
// "tilec.autotune" whose initializer is a tl::autotune aggregate (tilec/tl/autotune.h). The
// initializer is read from its semantic form, so designated and positional spellings alike
// work; hooks (lambdas, named functions) are kept as source text for the launcher header.
// The checks against the kernel are in AutotuneChecks.cpp.
#include "frontend/AutotuneChecks.h"
#include "frontend/Frontend.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace tilec {

using namespace clang;

namespace {

constexpr llvm::StringLiteral kVarPrefix = "tilec_autotune_";

bool isAutotuneVar(const VarDecl *v) {
  for (auto *a : v->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "tilec.autotune")
      return true;
  return false;
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(SourceManager &sm) : sm_(sm) {}
  bool VisitVarDecl(VarDecl *v) {
    if (isAutotuneVar(v) && sm_.isInMainFile(sm_.getExpansionLoc(v->getLocation())))
      found.push_back(v);
    return true;
  }
  std::vector<const VarDecl *> found; // in source order

private:
  SourceManager &sm_;
};

bool inNamespaceTl(const Decl *d) {
  for (const DeclContext *dc = d->getDeclContext(); dc && !dc->isTranslationUnit();
       dc = dc->getParent())
    if (auto *ns = dyn_cast<NamespaceDecl>(dc))
      if (ns->getName() == "tl" && ns->getParent()->isTranslationUnit())
        return true;
  return false;
}

class Reader {
public:
  explicit Reader(ASTContext &ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}
  bool read(const VarDecl *var, AutotuneDecl &out);

private:
  void error(SourceLocation loc, const std::string &msg) {
    auto &d = ctx_.getDiagnostics();
    d.Report(loc, d.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << msg;
    ok_ = false;
  }
  /// A member left out: its default member initializer or value-initialization.
  static bool isDefault(const Expr *e) {
    e = e->IgnoreImplicit();
    auto *construct = dyn_cast<CXXConstructExpr>(e);
    return isa<CXXDefaultInitExpr>(e) || isa<ImplicitValueInitExpr>(e) ||
           (construct && construct->getNumArgs() == 0);
  }
  const InitListExpr *fields(const Expr *e, const char *what);
  std::vector<const Expr *> elements(const Expr *e);
  bool name(const Expr *e, AutotuneName &out, const char *what);
  bool integer(const Expr *e, int64_t &out, const char *what);
  bool hook(const Expr *e, HostHook &out, const char *what);
  void checkHookBody(const Stmt *body, SourceRange own);
  std::string text(SourceRange r) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts()).str();
  }

  ASTContext &ctx_;
  SourceManager &sm_;
  bool ok_ = true;
};

/// The semantic init list of an aggregate element (tl::config, tl::heuristic, ...).
const InitListExpr *Reader::fields(const Expr *e, const char *what) {
  auto *ile = dyn_cast<InitListExpr>(e->IgnoreImplicit());
  if (!ile || !ile->getType()->getAsRecordDecl()) {
    error(e->getBeginLoc(), std::string("expected a braced ") + what);
    return nullptr;
  }
  return ile;
}

/// The elements of an std::initializer_list member; none when it was left out.
std::vector<const Expr *> Reader::elements(const Expr *e) {
  if (auto *d = dyn_cast<CXXDefaultInitExpr>(e))
    e = d->getExpr();
  e = e->IgnoreImplicit();
  std::vector<const Expr *> out;
  if (auto *il = dyn_cast<CXXStdInitializerListExpr>(e))
    if (auto *arr = dyn_cast<InitListExpr>(il->getSubExpr()->IgnoreImplicit()))
      for (const Expr *x : arr->inits())
        out.push_back(x);
  return out;
}

bool Reader::name(const Expr *e, AutotuneName &out, const char *what) {
  auto *s = dyn_cast<StringLiteral>(e->IgnoreParenImpCasts());
  if (!s || !s->isOrdinary()) {
    error(e->getBeginLoc(), std::string("expected a string literal naming ") + what);
    return false;
  }
  out.name = s->getString().str();
  out.loc = sm_.getExpansionLoc(s->getBeginLoc());
  return true;
}

bool Reader::integer(const Expr *e, int64_t &out, const char *what) {
  Expr::EvalResult r;
  if (!e->EvaluateAsInt(r, ctx_)) {
    error(e->getBeginLoc(), std::string(what) + " must be an integer constant");
    return false;
  }
  out = r.Val.getInt().getExtValue();
  return true;
}

/// A hook: a lambda without captures or the name of a function defined in this file.
bool Reader::hook(const Expr *e, HostHook &out, const char *what) {
  if (isDefault(e))
    return true;
  SourceLocation at = e->getBeginLoc();
  for (;;) { // down to what was written: conversions to tl::hook, decays, `&f`
    e = e->IgnoreParens();
    if (auto *x = dyn_cast<ExprWithCleanups>(e))
      e = x->getSubExpr();
    else if (auto *x = dyn_cast<ImplicitCastExpr>(e))
      e = x->getSubExpr();
    else if (auto *x = dyn_cast<MaterializeTemporaryExpr>(e))
      e = x->getSubExpr();
    else if (auto *x = dyn_cast<CXXBindTemporaryExpr>(e))
      e = x->getSubExpr();
    else if (auto *x = dyn_cast<CXXConstructExpr>(e); x && x->getNumArgs() == 1)
      e = x->getArg(0);
    else if (auto *x = dyn_cast<UnaryOperator>(e); x && x->getOpcode() == UO_AddrOf)
      e = x->getSubExpr();
    else
      break;
  }
  out.loc = sm_.getExpansionLoc(at);
  const FunctionDecl *fn = nullptr;
  SourceRange range;
  if (auto *lambda = dyn_cast<LambdaExpr>(e)) {
    if (lambda->capture_begin() != lambda->capture_end() ||
        lambda->getCaptureDefault() != LCD_None) {
      error(lambda->getBeginLoc(),
            std::string("the ") + what + " cannot capture: it is copied into the launcher header");
      return false;
    }
    fn = lambda->getCallOperator();
    range = lambda->getSourceRange();
  } else if (auto *ref = dyn_cast<DeclRefExpr>(e); ref && isa<FunctionDecl>(ref->getDecl())) {
    fn = cast<FunctionDecl>(ref->getDecl())->getDefinition();
    if (!fn || isa<CXXMethodDecl>(fn) || fn->isTemplateInstantiation() ||
        !sm_.isInMainFile(sm_.getExpansionLoc(fn->getLocation()))) {
      error(ref->getBeginLoc(), std::string("the ") + what + " '" +
                                    ref->getDecl()->getNameAsString() +
                                    "' must be a function defined in this file (its text is "
                                    "copied into the launcher header)");
      return false;
    }
    out.functionName = fn->getNameAsString();
    range = fn->getSourceRange();
  } else {
    error(at, std::string("the ") + what + " must be a lambda or the name of a function");
    return false;
  }
  if (range.getBegin().isMacroID() || range.getEnd().isMacroID()) {
    error(at, std::string("the ") + what + " must be written outside of macros");
    return false;
  }
  for (const ParmVarDecl *p : fn->parameters()) {
    if (p->getName().empty()) {
      error(p->getLocation(), std::string("every parameter of the ") + what +
                                  " needs a name: parameters are bound by name");
      return false;
    }
    out.params.push_back({p->getNameAsString(), p->getLocation()});
  }
  out.text = text(range);
  if (!out.functionName.empty() && !fn->isInlineSpecified())
    out.text = "inline " + out.text; // defined in a header now
  checkHookBody(fn->getBody(), range);
  return ok_;
}

/// A hook runs in the launcher header: it may not use what this file declares, nor the tl::
/// functions (kernel vocabulary, not host code there).
void Reader::checkHookBody(const Stmt *body, SourceRange own) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    Reader &r;
    SourceRange own;
    bool VisitDeclRefExpr(DeclRefExpr *e) {
      const ValueDecl *d = e->getDecl();
      SourceLocation dl = r.sm_.getExpansionLoc(d->getLocation());
      bool inside = r.sm_.isPointWithin(dl, own.getBegin(), own.getEnd());
      if (inNamespaceTl(d))
        r.error(e->getBeginLoc(), "'tl::" + d->getNameAsString() +
                                      "' is kernel vocabulary; a hook runs on the host (use "
                                      "tilec::cdiv or tilec::next_power_of_2)");
      else if (!inside && r.sm_.isInMainFile(dl))
        r.error(e->getBeginLoc(), "a hook is copied into the launcher header and can use only "
                                  "its parameters, the standard library and tilec:: helpers; '" +
                                      d->getNameAsString() + "' is declared in this file");
      return true;
    }
  } v{{}, *this, own};
  if (body)
    v.TraverseStmt(const_cast<Stmt *>(body));
}

bool Reader::read(const VarDecl *var, AutotuneDecl &out) {
  out.loc = sm_.getExpansionLoc(var->getLocation());
  const CXXRecordDecl *rd = var->getType()->getAsCXXRecordDecl();
  const Expr *init = var->getInit();
  const InitListExpr *ile = init ? dyn_cast<InitListExpr>(init->IgnoreImplicit()) : nullptr;
  if (!var->getName().starts_with(kVarPrefix) || !rd ||
      rd->getQualifiedNameAsString() != "tl::autotune" || !ile) {
    error(out.loc, "expected TILEC_AUTOTUNE(kernel) = {.configs = ..., .key = ...}");
    return false;
  }
  out.kernel = var->getName().drop_front(kVarPrefix.size()).str();
  unsigned i = 0;
  for (const FieldDecl *f : rd->fields()) {
    if (i >= ile->getNumInits())
      break;
    const Expr *e = ile->getInit(i++);
    StringRef field = f->getName();
    if (field == "configs") {
      for (const Expr *c : elements(e)) {
        const InitListExpr *cfg = fields(c, "tl::config");
        if (!cfg || cfg->getNumInits() < 3)
          continue;
        AutotuneConfig ac;
        ac.loc = sm_.getExpansionLoc(c->getBeginLoc());
        for (const Expr *v : elements(cfg->getInit(0))) {
          const InitListExpr *pv = fields(v, "{\"NAME\", value} pair");
          AutotuneValue av;
          if (pv && pv->getNumInits() == 2 &&
              name(pv->getInit(0), av.param, "a template parameter") &&
              integer(pv->getInit(1), av.value, "a config value"))
            ac.values.push_back(av);
        }
        int64_t warps = 4, stages = 3;
        if (integer(cfg->getInit(1), warps, "num_warps") &&
            integer(cfg->getInit(2), stages, "num_stages")) {
          ac.numWarps = int(warps);
          ac.numStages = int(stages);
        }
        out.configs.push_back(ac);
      }
    } else if (field == "key") {
      for (const Expr *k : elements(e)) {
        AutotuneName n;
        if (name(k, n, "an argument"))
          out.key.push_back(n);
      }
    } else if (field == "prune") {
      hook(e, out.prune, "prune hook");
    } else if (field == "reset_to_zero" || field == "restore_value") {
      auto &list = field == "reset_to_zero" ? out.resetToZero : out.restoreValue;
      for (const Expr *b : elements(e)) {
        const InitListExpr *buf = fields(b, "{\"argument\", count} pair");
        AutotuneBuffer ab;
        if (buf && buf->getNumInits() == 2 && name(buf->getInit(0), ab.arg, "an argument") &&
            hook(buf->getInit(1), ab.count, "count hook")) {
          if (ab.count.empty())
            error(ab.arg.loc, "'" + ab.arg.name + "' needs its number of elements: {\"" +
                                  ab.arg.name + "\", [](int n) { return n; }}");
          else
            list.push_back(ab);
        }
      }
    } else if (field == "heuristics") {
      for (const Expr *h : elements(e)) {
        const InitListExpr *he = fields(h, "{\"NAME\", hook} pair");
        AutotuneHeuristic ah;
        if (he && he->getNumInits() == 2 &&
            name(he->getInit(0), ah.target, "a template parameter") &&
            hook(he->getInit(1), ah.value, "heuristic")) {
          if (ah.value.empty())
            error(ah.target.loc, "the heuristic for '" + ah.target.name + "' needs a hook");
          else
            out.heuristics.push_back(ah);
        }
      }
    } else if (field == "warmup_ms" || field == "rep_ms") {
      llvm::APFloat v(0.0);
      if (!e->EvaluateAsFloat(v, ctx_) || !(v.convertToDouble() > 0))
        error(e->getBeginLoc(), field.str() + " must be a positive constant");
      else
        (field == "warmup_ms" ? out.warmupMs : out.repMs) = v.convertToDouble();
    }
  }
  return ok_;
}

} // namespace

std::vector<AutotuneDecl> readAutotuneDecls(ASTContext &ctx,
                                            const std::vector<const Kernel *> &kernels) {
  Collector c(ctx.getSourceManager());
  c.TraverseDecl(ctx.getTranslationUnitDecl());
  std::vector<AutotuneDecl> out;
  for (const VarDecl *v : c.found) {
    AutotuneDecl d;
    if (!Reader(ctx).read(v, d))
      continue;
    const Kernel *k = nullptr;
    for (const Kernel *x : kernels)
      if (x->name == d.kernel)
        k = x;
    if (!k) {
      auto &diags = ctx.getDiagnostics();
      diags.Report(d.loc, diags.getCustomDiagID(DiagnosticsEngine::Error,
                                                "TILEC_AUTOTUNE(%0): no TILEC_KERNEL named '%0' "
                                                "in this file"))
          << d.kernel;
      continue;
    }
    if (checkAutotune(d, *k, ctx.getDiagnostics()))
      out.push_back(std::move(d));
  }
  return out;
}

} // namespace tilec
