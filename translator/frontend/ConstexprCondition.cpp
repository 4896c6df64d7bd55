// The condition of an `if constexpr` is kept as C++ in the generated kernel (it selects code
// at the GPU compiler's instantiation). Names it uses from outside the kernel (constexpr
// globals, enumerators, static members) and macros are not declared in the .cu, so they are
// written as their values; so are a helper's template parameters (the helper is inlined:
// its parameters are what the call gave). The kernel's own template parameters stay names.
//
//   constexpr int MEAN = 1;
//   if constexpr (reduction == MEAN)     ->     if constexpr (reduction == (1))
//   helper<2>(...): if constexpr (MODE == 2)  ->  if constexpr ((2) == 2)
#include "frontend/Lowerer.h"
#include "ir/Words.h"

#include <clang/AST/PrettyPrinter.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cstdio>
#include <functional>

namespace tilec {

using namespace clang;

namespace {

/// The value of a reference to a constant as C++ text, or "" when it is not one.
std::string constantText(const Expr *e, const ASTContext &ctx) {
  if (e->isValueDependent() || e->isTypeDependent())
    return "";
  QualType qt = e->getType();
  if (!(qt->isArithmeticType() || qt->isEnumeralType()))
    return "";
  Expr::EvalResult r;
  if (!e->EvaluateAsRValue(r, ctx))
    return "";
  if (r.Val.isInt()) {
    if (qt->isBooleanType())
      return r.Val.getInt().getBoolValue() ? "true" : "false";
    const llvm::APSInt &v = r.Val.getInt();
    // An enumerator promotes to int where it is compared or computed with: print it so.
    bool isSigned = v.isSigned() || qt->isEnumeralType();
    std::string s = isSigned ? std::to_string(v.getExtValue()) : std::to_string(v.getZExtValue());
    return "(" + s + (isSigned ? "" : "u") + (v.getBitWidth() > 32 ? "ll" : "") + ")";
  }
  if (r.Val.isFloat()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", r.Val.getFloat().convertToDouble());
    return std::string("(") + buf + ")";
  }
  return "";
}

/// The references of a condition, the type template parameters it spells, and whether any
/// part of it comes from a macro.
class Names : public RecursiveASTVisitor<Names> {
public:
  std::vector<const DeclRefExpr *> refs;
  std::vector<TemplateTypeParmTypeLoc> types;
  bool macro = false;
  bool VisitStmt(Stmt *s) {
    macro = macro || s->getBeginLoc().isMacroID() || s->getEndLoc().isMacroID();
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *r) {
    refs.push_back(r);
    return true;
  }
  bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc t) {
    types.push_back(t);
    return true;
  }
};

/// Prints a macro-expanded condition with each reference replaced by `replace`'s text
/// (when not empty).
class ReplacingPrinter : public PrinterHelper {
public:
  explicit ReplacingPrinter(std::function<std::string(const DeclRefExpr *)> replace)
      : replace_(std::move(replace)) {}
  bool handledStmt(Stmt *s, raw_ostream &os) override {
    auto *r = dyn_cast<DeclRefExpr>(s);
    if (!r)
      return false;
    std::string v = replace_(r);
    if (v.empty())
      return false;
    os << v;
    return true;
  }

private:
  std::function<std::string(const DeclRefExpr *)> replace_;
};

} // namespace

std::string Lowerer::constexprConditionText(const Expr *cond) {
  Names names;
  names.TraverseStmt(const_cast<Expr *>(cond));
  // What a reference becomes: a helper's parameter its bound value, a constant from outside
  // the kernel its value, anything else itself ("").
  auto replacement = [&](const DeclRefExpr *r) -> std::string {
    if (auto it = symBindings_.find(r->getDecl()); it != symBindings_.end())
      return "(" + it->second.str() + ")";
    if (isa<NonTypeTemplateParmDecl>(r->getDecl()))
      return "";
    return constantText(r, ctx_);
  };
  // A helper's type parameter: its deduced type.
  auto typeReplacement = [&](const TemplateTypeParmTypeLoc &t) -> std::string {
    const NamedDecl *d = templateParamDecl(t.getTypePtr());
    if (auto it = typeBindings_.find(d); d && it != typeBindings_.end())
      return it->second.cuda();
    return "";
  };
  auto &sm = ctx_.getSourceManager();
  if (names.macro) {
    for (const TemplateTypeParmTypeLoc &t : names.types)
      if (!typeReplacement(t).empty()) {
        error(cond, "a helper's type parameter in an 'if constexpr' condition that uses a "
                    "macro is not supported; spell the condition without the macro");
        return sourceText(cond->getSourceRange());
      }
    ReplacingPrinter helper(replacement);
    std::string text;
    llvm::raw_string_ostream os(text);
    cond->printPretty(os, &helper, PrintingPolicy(ctx_.getLangOpts()));
    return deviceSpelling(cond, os.str());
  }
  // Replace spellings from the last to the first, so that offsets stay valid.
  struct Edit {
    unsigned begin, end;
    std::string text;
  };
  std::vector<Edit> edits;
  unsigned base = sm.getFileOffset(cond->getBeginLoc());
  auto add = [&](SourceLocation b, SourceLocation e, std::string text) {
    if (text.empty())
      return;
    unsigned begin = sm.getFileOffset(b) - base;
    unsigned end = sm.getFileOffset(e) - base + Lexer::MeasureTokenLength(e, sm, ctx_.getLangOpts());
    edits.push_back({begin, end, std::move(text)});
  };
  for (const DeclRefExpr *r : names.refs)
    add(r->getBeginLoc(), r->getEndLoc(), replacement(r));
  for (const TemplateTypeParmTypeLoc &t : names.types)
    add(t.getBeginLoc(), t.getEndLoc(), typeReplacement(t));
  std::sort(edits.begin(), edits.end(), [](const Edit &a, const Edit &b) { return a.begin > b.begin; });
  std::string text = sourceText(cond->getSourceRange());
  for (const Edit &e : edits)
    if (e.end <= text.size() && e.begin <= e.end)
      text.replace(e.begin, e.end - e.begin, e.text);
  return deviceSpelling(cond, text);
}

/// The generated kernel has no standard library: its type comparison is the device library's
/// (tilec::is_same_v, templates/tilec/device/common/compat.cuh); anything else from std is an
/// error here rather than in NVRTC.
std::string Lowerer::deviceSpelling(const Expr *cond, std::string text) {
  for (const char *name : {"is_same_v", "is_same"}) {
    const std::string from = std::string("std::") + name, to = std::string("tilec::") + name;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      if (at + from.size() == text.size() || !isIdentifierChar(text[at + from.size()]))
        text.replace(at, from.size(), to);
  }
  if (text.find("std::") != std::string::npos)
    error(cond, "an 'if constexpr' condition is kept in the generated kernel, which has no "
                "standard library: compare types with std::is_same_v, or pass a bool template "
                "parameter");
  return text;
}

} // namespace tilec
