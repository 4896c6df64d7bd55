// The condition of an `if constexpr` is kept as C++ in the generated kernel (it selects code
// at the GPU compiler's instantiation). Names it uses from outside the kernel (constexpr
// globals, enumerators, static members) and macros are not declared in the .cu, so they are
// written as their values; template parameters stay names.
//
//   constexpr int MEAN = 1;
//   if constexpr (reduction == MEAN)     ->     if constexpr (reduction == 1)
#include "frontend/Lowerer.h"

#include <clang/AST/PrettyPrinter.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cstdio>

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

/// References to names other than template parameters, and whether any part of the
/// condition comes from a macro.
class Names : public RecursiveASTVisitor<Names> {
public:
  std::vector<const DeclRefExpr *> refs;
  bool macro = false;
  bool VisitStmt(Stmt *s) {
    macro = macro || s->getBeginLoc().isMacroID() || s->getEndLoc().isMacroID();
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *r) {
    if (!isa<NonTypeTemplateParmDecl>(r->getDecl()))
      refs.push_back(r);
    return true;
  }
};

/// Prints a macro-expanded condition with the constants it names replaced by their values.
class ConstantPrinter : public PrinterHelper {
public:
  explicit ConstantPrinter(const ASTContext &ctx) : ctx_(ctx) {}
  bool handledStmt(Stmt *s, raw_ostream &os) override {
    auto *r = dyn_cast<DeclRefExpr>(s);
    if (!r || isa<NonTypeTemplateParmDecl>(r->getDecl()))
      return false;
    std::string v = constantText(r, ctx_);
    if (v.empty())
      return false;
    os << v;
    return true;
  }

private:
  const ASTContext &ctx_;
};

} // namespace

std::string Lowerer::constexprConditionText(const Expr *cond) {
  Names names;
  names.TraverseStmt(const_cast<Expr *>(cond));
  if (names.macro) {
    ConstantPrinter helper(ctx_);
    std::string text;
    llvm::raw_string_ostream os(text);
    cond->printPretty(os, &helper, PrintingPolicy(ctx_.getLangOpts()));
    return os.str();
  }
  // Replace the constants' spellings from the last to the first, so offsets stay valid.
  auto &sm = ctx_.getSourceManager();
  std::string text = sourceText(cond->getSourceRange());
  unsigned base = sm.getFileOffset(cond->getBeginLoc());
  std::vector<const DeclRefExpr *> refs = names.refs;
  std::sort(refs.begin(), refs.end(), [&](const DeclRefExpr *a, const DeclRefExpr *b) {
    return sm.getFileOffset(a->getBeginLoc()) > sm.getFileOffset(b->getBeginLoc());
  });
  for (const DeclRefExpr *r : refs) {
    std::string v = constantText(r, ctx_);
    if (v.empty())
      continue;
    unsigned begin = sm.getFileOffset(r->getBeginLoc()) - base;
    unsigned end = sm.getFileOffset(r->getEndLoc()) - base +
                   Lexer::MeasureTokenLength(r->getEndLoc(), sm, ctx_.getLangOpts());
    if (end > text.size() || begin > end)
      continue;
    text.replace(begin, end - begin, v);
  }
  return text;
}

} // namespace tilec
