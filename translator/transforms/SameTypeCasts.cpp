#include "transforms/SameTypeCasts.h"

#include "ir/Rewriter.h"

#include <algorithm>
#include <string>
#include <vector>

namespace tilec {

namespace {

/// A cast of a loaded tile to another type, where either type is a template parameter, read
/// as a tl::dot operand (and by nothing else).
bool castOfLoadForDot(const Op &op) {
  if (op.kind != OpKind::Cast || !op.result || !op.result->type.isTile() ||
      op.result->type.pointer)
    return false;
  const Value *in = op.operands[0];
  if (!defOf(in, OpKind::Load))
    return false;
  const ElemType &from = in->type.elem, &to = op.result->type.elem;
  if (from == to || (from.isKnown() && to.isKnown()))
    return false;
  return op.result->uses > 0;
}

/// Whether every reader of `v` in `r` reads it as a tl::dot's a or b.
bool readOnlyByDots(const Region &r, const Value *v) {
  int reads = 0;
  bool ok = true;
  walkRegion(r, [&](const Op &op) {
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (op.operands[i] == v) {
        ++reads;
        ok = ok && op.kind == OpKind::Dot && i < 2;
      }
  });
  return ok && reads == v->uses;
}

std::vector<Op *> castsIn(Region &r) {
  std::vector<Op *> out;
  walkOps(r, [&](Op &op) {
    if (castOfLoadForDot(op) && readOnlyByDots(r, op.result))
      out.push_back(&op);
  });
  return out;
}

/// Replaces `loop` by `if constexpr (cond) { a copy of it without its casts } else { it }`.
void version(Kernel &k, Op &loop, const std::string &cond) {
  Op *copy = nullptr;
  versionLoop(k, loop, cond,
              cond + ": the casts to the tl::dot operands' type change nothing (a copy for "
                     "these specializations)",
              loop.line, copy);
  // The copy's casts read as their operands.
  for (Op *cast : castsIn(*copy->regions[0])) {
    replaceAllUses(k, cast->result, cast->operands[0]);
    eraseOp(k, cast);
  }
}

} // namespace

void runSameTypeCasts(Kernel &k) {
  recountUses(k);
  for (Op *loop : outermostDotLoops(k.body)) {
    std::vector<std::string> conds;
    for (Op *cast : castsIn(*loop->regions[0])) {
      std::string c = kSameTypeCondition + cast->operands[0]->type.elem.cuda() + ", " +
                      cast->result->type.elem.cuda() + ">";
      if (std::find(conds.begin(), conds.end(), c) == conds.end())
        conds.push_back(c);
    }
    if (conds.empty())
      continue;
    std::string cond;
    for (const std::string &c : conds)
      cond += (cond.empty() ? "" : " && ") + c;
    version(k, *loop, cond);
  }
  recountUses(k);
}

} // namespace tilec
