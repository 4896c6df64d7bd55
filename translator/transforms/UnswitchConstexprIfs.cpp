#include "transforms/UnswitchConstexprIfs.h"

#include "ir/ConstexprGuards.h"
#include "ir/Rewriter.h"
#include "ir/Words.h"

#include <vector>

namespace tilec {

namespace {

constexpr int kMaxUnswitchedPerNest = 2;

/// Whether an op of `kind` is at the top level of `r` (not inside a nested region).
bool holds(const Region &r, OpKind kind) {
  for (auto &op : r.ops)
    if (op->kind == kind)
      return true;
  return false;
}

/// The first `if constexpr` at the top level of `loop`'s body with a load at the top level of
/// either branch, where the body or that branch has a tl::dot at its top level: the loads that
/// inlined would be the pipeliner's to stage. Not one whose condition reads a value the loop
/// defines. Null when there is none.
Op *unswitchable(Op &loop) {
  Region &body = *loop.regions[0];
  for (auto &op : body.ops) {
    if (op->kind != OpKind::If || op->constexprCond.empty() ||
        conditionNamesValueOf(body, op->constexprCond))
      continue;
    bool loads = false, dots = holds(body, OpKind::Dot);
    for (auto &branch : op->regions) {
      loads = loads || holds(*branch, OpKind::Load);
      dots = dots || holds(*branch, OpKind::Dot);
    }
    if (loads && dots)
      return op.get();
  }
  return nullptr;
}

/// Replaces the If at `body.ops[index]` by the ops of its branch `which`; its results become
/// that branch's yields.
void inlineBranch(Kernel &k, Region &body, size_t index, size_t which) {
  Op *branch = body.ops[index].get();
  Region &taken = *branch->regions[which];
  for (size_t j = 0; j < branch->results.size(); ++j)
    replaceAllUses(k, branch->results[j], taken.yields[j]);
  std::vector<std::unique_ptr<Op>> ops = std::move(taken.ops);
  body.ops.erase(body.ops.begin() + long(index));
  body.ops.insert(body.ops.begin() + long(index), std::make_move_iterator(ops.begin()),
                  std::make_move_iterator(ops.end()));
}

/// Replaces `loop` by an If on `inner`'s condition whose branches are copies of the loop with
/// `inner` inlined; returns the If.
Op *unswitch(Kernel &k, Op &loop, const Op &inner) {
  Region &body = *loop.regions[0];
  size_t index = 0;
  while (body.ops[index].get() != &inner)
    ++index;
  Op *copy = nullptr;
  Op *branch = versionLoop(k, loop, inner.constexprCond,
                           inner.constexprCond + ": a copy of the loop per branch of its if "
                                                 "constexpr, whose loads can then be pipelined",
                           inner.line, copy);
  // Then: the copy with the then-branch. Else: the loop itself with the else-branch.
  inlineBranch(k, *copy->regions[0], index, 0);
  inlineBranch(k, body, index, 1);
  recountUses(k);
  return branch;
}

void visit(Kernel &k, Region &r, int budget) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    Op *op = r.ops[i].get();
    if (op->kind == OpKind::For && !op->unrolled && budget > 0)
      if (const Op *inner = unswitchable(*op)) {
        Op *branch = unswitch(k, *op, *inner); // now at r.ops[i]
        for (auto &sub : branch->regions)
          visit(k, *sub, budget - 1);
        continue;
      }
    for (auto &sub : op->regions)
      visit(k, *sub, budget);
  }
}

} // namespace

void runUnswitchConstexprIfs(Kernel &k) {
  recountUses(k);
  visit(k, k.body, kMaxUnswitchedPerNest);
}

} // namespace tilec
