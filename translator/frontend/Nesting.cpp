// The nesting limit of lowering: expressions and statements are lowered recursively, one C++
// stack frame (or a few) per level of the source, so an input nested deeper than any kernel
// needs (a machine-written chain of 20,000 `+`, an `else if` ladder of that length) gets a
// located error instead of overflowing the stack.
#include "frontend/Lowerer.h"

namespace tilec {

using namespace clang;

/// One level of nesting for the duration of a lowerExpr / lowerStmt call.
struct NestingScope {
  Lowerer &l;
  bool ok;
  NestingScope(Lowerer &lw, const Stmt *s) : l(lw), ok(++lw.nesting_ <= Lowerer::kMaxNesting) {
    if (ok || l.nestingReported_)
      return;
    // Once per kernel: every enclosing level fails too and would say the same.
    l.nestingReported_ = true;
    l.error(s, "nested too deeply: more than " + std::to_string(Lowerer::kMaxNesting) +
                   " levels of operators, calls, blocks, 'else if' and helpers; split it "
                   "into several statements with named intermediate values");
  }
  ~NestingScope() { --l.nesting_; }
};

Value *Lowerer::lowerExpr(const Expr *e) {
  if (!e)
    return nullptr;
  NestingScope scope(*this, e);
  return scope.ok ? lowerExprNode(e) : nullptr;
}

void Lowerer::lowerStmt(const Stmt *s) {
  if (!s)
    return;
  NestingScope scope(*this, s);
  if (scope.ok)
    lowerStmtNode(s);
}

} // namespace tilec
