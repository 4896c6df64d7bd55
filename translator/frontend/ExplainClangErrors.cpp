// Errors added after clang's own where its wording misleads kernel authors. A run-time value
// given as a tl:: template argument (`tl::arange<0, n>()`) makes clang say "no matching
// function for call to 'arange'"; a cache modifier tl::cache lacks only "no member named";
// the added error says what is wrong and what to write instead. (An error, not a note: clang
// drops a note whose preceding diagnostic it ignored.)
#include "frontend/Frontend.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <set>

namespace tilec {

using namespace clang;

namespace {

bool inTl(const NamedDecl *d) {
  for (const DeclContext *dc = d->getDeclContext(); dc; dc = dc->getParent())
    if (auto *ns = dyn_cast<NamespaceDecl>(dc); ns && ns->getName() == "tl")
      return true;
  return false;
}

/// The first variable (parameter or non-constexpr local) an expression reads, if any.
const VarDecl *runTimeVariable(const Expr *e) {
  if (!e)
    return nullptr;
  if (auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    if (auto *vd = dyn_cast<VarDecl>(ref->getDecl()); vd && !vd->isConstexpr())
      return vd;
  for (const Stmt *child : e->children())
    if (auto *ce = dyn_cast_or_null<Expr>(child))
      if (const VarDecl *vd = runTimeVariable(ce))
        return vd;
  return nullptr;
}

class Explainer : public RecursiveASTVisitor<Explainer> {
public:
  explicit Explainer(ASTContext &ctx) : ctx_(ctx) {}

  bool VisitRecoveryExpr(RecoveryExpr *re) {
    for (Expr *sub : re->subExpressions())
      if (auto *ule = dyn_cast_or_null<UnresolvedLookupExpr>(sub))
        explain(ule);
    return true;
  }

private:
  void explain(const UnresolvedLookupExpr *ule) {
    auto &sm = ctx_.getSourceManager();
    if (!sm.isInMainFile(sm.getExpansionLoc(ule->getBeginLoc())) || ule->decls().empty() ||
        !inTl(*ule->decls().begin()))
      return;
    for (const TemplateArgumentLoc &a : ule->template_arguments()) {
      if (a.getArgument().getKind() != TemplateArgument::Expression)
        continue;
      const VarDecl *vd = runTimeVariable(a.getSourceExpression());
      if (!vd || !explained_.insert(a.getLocation().getRawEncoding()).second)
        continue;
      std::string fn = "tl::" + ule->getName().getAsString();
      auto &d = ctx_.getDiagnostics();
      d.Report(a.getLocation(), d.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
          << "'" + vd->getNameAsString() +
                 "' is not a compile-time constant: the template "
                 "arguments of " +
                 fn +
                 " (tile sizes, axes) must be known when the kernel is "
                 "compiled; use a literal, a constexpr value or a template parameter of the "
                 "kernel (template <int " +
                 vd->getNameAsString() +
                 ">), and mask with the "
                 "run-time value";
    }
  }

  ASTContext &ctx_;
  std::set<unsigned> explained_;
};

} // namespace

/// `tl::cache::lu` (no such cache modifier): clang says only that tl::cache has no `lu`, and
/// may drop the whole declaration it was in from the AST; the source still shows it.
static void explainCacheModifiers(ASTContext &ctx) {
  static const std::set<std::string> known = {"ca", "cg", "cv", "wb", "cs", "wt"};
  auto &sm = ctx.getSourceManager();
  FileID main = sm.getMainFileID();
  llvm::StringRef text = sm.getBufferData(main);
  const llvm::StringRef prefix = "tl::cache::";
  for (size_t at = text.find(prefix); at != llvm::StringRef::npos;
       at = text.find(prefix, at + 1)) {
    size_t from = at + prefix.size(), to = from;
    while (to < text.size() && (isalnum(text[to]) || text[to] == '_'))
      ++to;
    std::string name = text.substr(from, to - from).str();
    if (name.empty() || known.count(name))
      continue;
    auto &d = ctx.getDiagnostics();
    d.Report(sm.getLocForStartOfFile(main).getLocWithOffset(int(from)),
             d.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << "'" + name + "' is not a cache modifier: loads take tl::cache::ca, cg or cv, " +
               "stores tl::cache::wb, cg, cs or wt (Triton's cache_modifier values)";
  }
}

void explainClangErrors(ASTContext &ctx) {
  Explainer(ctx).TraverseDecl(ctx.getTranslationUnitDecl());
  explainCacheModifiers(ctx);
}

} // namespace tilec
