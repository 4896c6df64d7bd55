// tl::device_print, tl::device_assert and tl::debug_barrier -> tile IR.
//
//   tl::device_print("x", t, s)        print "x" %5:t, %6:s
//   tl::device_assert(v > 0, "msg")    assert "msg" %8
//   tl::debug_barrier()                barrier
#include "frontend/Lowerer.h"

namespace tilec {

using namespace clang;

bool Lowerer::isDebugOpName(const std::string &n) {
  return n == "device_print" || n == "device_assert" || n == "debug_barrier";
}

/// The text of a string literal argument (the message), or nullopt after an error.
static std::optional<std::string> literalText(Lowerer &l, const std::string &fn, const Expr *e) {
  if (auto *s = dyn_cast<StringLiteral>(e->IgnoreParenImpCasts()); s && s->isOrdinary())
    return s->getString().str();
  l.error(e, "tl::" + fn + " needs its message as a string literal");
  return std::nullopt;
}

void Lowerer::lowerDebugOp(const CallExpr *call, const Callee &c) {
  unsigned nargs = givenArgs(call);
  if (c.name == "device_print") {
    if (nargs < 1) {
      error(call, "tl::device_print takes a message and the values to print");
      return;
    }
    auto msg = literalText(*this, c.name, call->getArg(0));
    if (!msg)
      return;
    std::vector<Value *> values;
    for (unsigned i = 1; i < nargs; ++i) {
      Value *v = lowerExpr(call->getArg(i));
      if (!v)
        return;
      values.push_back(v);
    }
    emit(OpKind::Print, values, Type{}, call, /*hasResult=*/false)->opcode = *msg;
    return;
  }
  if (c.name == "debug_barrier") {
    if (wantArgs(call, c, 0, 0))
      emit(OpKind::Barrier, {}, Type{}, call, /*hasResult=*/false);
    return;
  }
  if (!wantArgs(call, c, 2, 2))
    return;
  Value *cond = lowerExpr(call->getArg(0));
  auto msg = literalText(*this, c.name, call->getArg(1));
  if (!cond || !msg)
    return;
  if (cond->type.pointer) {
    error(call->getArg(0), "tl::device_assert needs a condition (a comparison), not a pointer");
    return;
  }
  cond = castTo(cond, ElemType::known(ScalarKind::Bool), call->getArg(0));
  if (cond)
    emit(OpKind::Assert, {cond}, Type{}, call, /*hasResult=*/false)->opcode = *msg;
}

} // namespace tilec
