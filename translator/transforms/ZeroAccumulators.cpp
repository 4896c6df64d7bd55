#include "transforms/ZeroAccumulators.h"

#include "ir/Rewriter.h"

#include <string>

namespace tilec {

namespace {

/// A literal zero as the frontend writes one: `0`, or a float literal such as `0.0f` (not
/// `-0.0`, whose sum with a zero product keeps the product's sign).
bool isZeroLiteral(const SymExpr &e) {
  if (e.isConst())
    return e.isConst(0);
  std::string t = e.str();
  while (!t.empty() && (t.back() == 'f' || t.back() == 'F'))
    t.pop_back();
  if (t.empty() || t.find_first_not_of("0.") != std::string::npos)
    return false;
  return t.find('0') != std::string::npos;
}

/// A tile of zeros: a splat of a literal zero.
bool isZeroTile(const Value *v) {
  const Op *splat = defOf(v, OpKind::Splat);
  const Op *c = splat ? defOf(splat->operands[0], OpKind::Constant) : nullptr;
  return c && !c->attrs.empty() && isZeroLiteral(c->attrs[0]);
}

} // namespace

void runZeroAccumulators(Kernel &k) {
  walkOps(k, [](Op &op) {
    if (op.kind == OpKind::Dot && isZeroTile(op.operands[2]))
      op.dotZeroAcc = true;
  });
}

} // namespace tilec
