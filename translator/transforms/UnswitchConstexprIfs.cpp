#include "transforms/UnswitchConstexprIfs.h"

#include "ir/Rewriter.h"

#include <map>
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
/// inlined would be the pipeliner's to stage. Null when there is none.
Op *unswitchable(Op &loop) {
  Region &body = *loop.regions[0];
  for (auto &op : body.ops) {
    if (op->kind != OpKind::If || op->constexprCond.empty())
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
  std::vector<size_t> carried; // the loop's results read after it
  for (size_t i = 0; i < loop.results.size(); ++i)
    if (loop.results[i]->uses > 0)
      carried.push_back(i);
  std::vector<Value *> inits;
  for (size_t j : carried)
    inits.push_back(loop.operands[3 + j]);
  Op *branch = Builder(k, &loop).create(OpKind::If, inits, Type{}, /*hasResult=*/false);
  branch->constexprCond = inner.constexprCond;
  branch->srcText = inner.constexprCond + ": a copy of the loop per branch of its if constexpr, "
                                          "whose loads can then be pipelined";
  branch->line = inner.line;
  for (size_t j : carried) {
    branch->carriedNames.push_back(loop.carriedNames[j]);
    branch->results.push_back(k.newValue(loop.results[j]->type, loop.results[j]->name));
  }
  for (size_t i = 0; i < carried.size(); ++i)
    replaceAllUses(k, loop.results[carried[i]], branch->results[i]);

  // Then: a copy of the loop. Else: the loop itself.
  auto then = std::make_unique<Region>();
  std::map<const Value *, Value *> map;
  cloneOps(k, {&loop}, *then, map);
  Op *copy = then->ops.back().get();
  for (size_t j : carried) {
    then->yields.push_back(copy->results[j]);
    copy->results[j]->uses++;
  }
  auto otherwise = std::make_unique<Region>();
  OpPosition pos = locate(k, &loop);
  std::unique_ptr<Op> original = std::move(pos.region->ops[pos.index]);
  pos.region->ops.erase(pos.region->ops.begin() + long(pos.index));
  for (size_t j : carried) {
    otherwise->yields.push_back(original->results[j]);
    original->results[j]->uses++;
  }
  Op *kept = original.get();
  otherwise->ops.push_back(std::move(original));
  branch->regions.push_back(std::move(then));
  branch->regions.push_back(std::move(otherwise));

  inlineBranch(k, *copy->regions[0], index, 0);
  inlineBranch(k, *kept->regions[0], index, 1);
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
