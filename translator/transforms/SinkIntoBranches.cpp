#include "transforms/SinkIntoBranches.h"

#include "ir/Rewriter.h"

#include <algorithm>

namespace tilec {

namespace {

constexpr size_t kMaxTailOps = 32;

/// Straight-line code that may run once per branch instead of once after them.
bool copyable(const Op &op) {
  return op.regions.empty() &&
         (isRegisterArithmetic(op.kind) || op.kind == OpKind::Load || op.kind == OpKind::Store);
}

/// Whether the op at `r.ops[i]` is a run-time if followed, to the end of `r`, by a short
/// copyable tail that reads a tile the if joins.
bool worthSinking(const Region &r, size_t i) {
  const Op &branch = *r.ops[i];
  if (branch.kind != OpKind::If || !branch.constexprCond.empty() || branch.regions.size() != 2)
    return false;
  const size_t tail = r.ops.size() - i - 1;
  if (tail == 0 || tail > kMaxTailOps)
    return false;
  // A tile that one branch leaves as it was lived before the if already: only tiles that
  // both branches compute afresh make the join hold more.
  auto madeInBoth = [&](size_t result) {
    for (size_t b = 0; b < 2; ++b)
      if (branch.regions[b]->yields[result] == branch.operands[1 + result])
        return false;
    return true;
  };
  bool readsJoinedTile = false;
  for (size_t j = i + 1; j < r.ops.size(); ++j) {
    if (!copyable(*r.ops[j]))
      return false;
    for (const Value *v : r.ops[j]->operands) {
      auto it = std::find(branch.results.begin(), branch.results.end(), v);
      readsJoinedTile |= it != branch.results.end() && v->type.isTile() &&
                         madeInBoth(size_t(it - branch.results.begin()));
    }
  }
  return readsJoinedTile;
}

/// Copies the ops after the if at `r.ops[i]` into the end of both its branches; the if then
/// carries what `r` yields. `owner` is the op whose region `r` is (null for the kernel's body).
void sink(Kernel &k, Region &r, size_t i, const Op *owner) {
  Op &branch = *r.ops[i];
  std::vector<std::unique_ptr<Op>> tail;
  for (size_t j = i + 1; j < r.ops.size(); ++j)
    tail.push_back(std::move(r.ops[j]));
  r.ops.resize(i + 1);
  std::vector<const Op *> tailOps;
  for (auto &op : tail)
    tailOps.push_back(op.get());

  for (auto &b : branch.regions) {
    std::map<const Value *, Value *> map;
    for (size_t j = 0; j < branch.results.size(); ++j)
      map[branch.results[j]] = b->yields[j];
    cloneOps(k, tailOps, *b, map);
    std::vector<Value *> yields;
    for (Value *y : r.yields) {
      auto it = map.find(y);
      yields.push_back(it == map.end() ? y : it->second);
    }
    b->yields = yields;
  }

  // The if now carries the variables `r` yields: before it they hold what they held when `r`
  // began (a loop's carried arguments, or the enclosing if's initial values).
  std::vector<Value *> oldInits(branch.operands.begin() + 1, branch.operands.end());
  branch.operands.resize(1);
  branch.results.clear();
  branch.carriedNames.clear();
  for (size_t j = 0; j < r.yields.size(); ++j) {
    const bool loop = owner->kind == OpKind::For;
    branch.operands.push_back(loop ? r.args[1 + j]
                                   : owner->operands[(owner->constexprCond.empty() ? 1 : 0) + j]);
    branch.carriedNames.push_back(owner->carriedNames[j]);
    branch.results.push_back(k.newValue(r.yields[j]->type, owner->carriedNames[j]));
  }
  r.yields = branch.results;
  // The originals go; nothing reads their results any more (the copies replaced them).
  for (auto &op : tail)
    if (op->result)
      op->result->def = nullptr;
  tail.clear();
  recountUses(k);
  for (Value *v : oldInits)
    eraseIfDead(k, v);
}

void visit(Kernel &k, Region &r, const Op *owner) {
  // Only a For's body, an if's branch or the kernel's body: their yields are carried
  // variables with initial values before the region.
  if (!owner || owner->kind == OpKind::For || owner->kind == OpKind::If) {
    for (size_t i = r.ops.size(); i-- > 0;)
      if (r.ops[i]->kind == OpKind::If) {
        if (worthSinking(r, i) && (owner || r.yields.empty()))
          sink(k, r, i, owner);
        break; // a tail never holds an if: only the last one can have one
      }
  }
  for (auto &op : r.ops)
    for (auto &sub : op->regions)
      visit(k, *sub, op.get());
}

} // namespace

void runSinkIntoBranches(Kernel &k) {
  recountUses(k);
  visit(k, k.body, nullptr);
}

} // namespace tilec
