// What to say about C++ a kernel may not contain: the construct in the words a kernel author
// uses, and what to write instead (clang's class names, `CXXConstructExpr`, mean nothing to
// most of them). Anything not listed falls back to a generic sentence naming the source text.
#include "frontend/Lowerer.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

namespace tilec {

using namespace clang;

std::string Lowerer::unsupported(const Stmt *s) {
  struct Entry {
    bool (*matches)(const Stmt *);
    const char *text;
  };
  static const Entry kEntries[] = {
      {[](const Stmt *s) { return isa<InitListExpr>(s) || isa<CXXStdInitializerListExpr>(s); },
       "brace initializers ({...}), arrays and aggregates are not supported in kernels; use "
       "tl::full / tl::zeros for tiles, or one scalar variable per value"},
      {[](const Stmt *s) {
         return isa<CXXConstructExpr>(s) || isa<CXXTemporaryObjectExpr>(s) ||
                isa<CXXUnresolvedConstructExpr>(s) || isa<CXXParenListInitExpr>(s);
       },
       "objects of classes (structs, unions, std:: containers, a tl::tile constructed "
       "directly) are not supported in kernels; make tiles with tl::zeros, tl::full or "
       "tl::arange, and use scalars and pointers"},
      {[](const Stmt *s) { return isa<ArraySubscriptExpr>(s); },
       "indexing with [] is not supported in kernels: tiles have no per-element access; load "
       "through a pointer tile (tl::load(ptr + offsets)) or use tl::where"},
      {[](const Stmt *s) { return isa<LambdaExpr>(s); },
       "lambdas are not supported in kernels; write a TILEC_FUNC helper instead"},
      {[](const Stmt *s) { return isa<UnaryExprOrTypeTraitExpr>(s); },
       "sizeof and alignof are not supported in kernels; use a literal or a template parameter"},
      {[](const Stmt *s) { return isa<CXXNewExpr>(s) || isa<CXXDeleteExpr>(s); },
       "new and delete are not supported in kernels; kernels read and write the buffers "
       "passed to them as pointer parameters"},
      {[](const Stmt *s) { return isa<StringLiteral>(s); },
       "strings are not supported in kernels (except the message of tl::device_print and "
       "tl::device_assert)"},
      {[](const Stmt *s) { return isa<CXXThrowExpr>(s) || isa<CXXTryStmt>(s); },
       "exceptions are not supported in kernels; use tl::device_assert"},
      {[](const Stmt *s) { return isa<SwitchStmt>(s); },
       "switch statements are not supported in kernels; use if / else if"},
      {[](const Stmt *s) { return isa<GotoStmt>(s) || isa<LabelStmt>(s); },
       "goto and labels are not supported in kernels; use if, for and while"},
      {[](const Stmt *s) { return isa<CXXThisExpr>(s); },
       "'this' is not supported in kernels: kernels are free functions"},
      {[](const Stmt *s) { return isa<AsmStmt>(s); },
       "inline assembly is not supported in kernels"},
  };
  for (const Entry &e : kEntries)
    if (e.matches(s))
      return e.text;
  std::string text = sourceText(s->getSourceRange());
  if (text.size() > 40)
    text = text.substr(0, 37) + "...";
  return "'" + text + "' is not supported in kernels (" + s->getStmtClassName() +
         "): kernels contain tl:: operations, TILEC_FUNC calls, operators on tiles and "
         "scalars, and if / for / while";
}

} // namespace tilec
