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
  std::vector<size_t> carried; // the loop's results read after it
  for (size_t i = 0; i < loop.results.size(); ++i)
    if (loop.results[i]->uses > 0)
      carried.push_back(i);
  std::vector<Value *> inits;
  for (size_t j : carried)
    inits.push_back(loop.operands[3 + j]);
  Op *branch = Builder(k, &loop).create(OpKind::If, inits, Type{}, /*hasResult=*/false);
  branch->constexprCond = cond;
  branch->srcText = cond + ": the casts to the tl::dot operands' type change nothing (a copy "
                           "for these specializations)";
  branch->line = loop.line;
  for (size_t j : carried) {
    branch->carriedNames.push_back(loop.carriedNames[j]);
    branch->results.push_back(k.newValue(loop.results[j]->type, loop.results[j]->name));
  }
  for (size_t i = 0; i < carried.size(); ++i)
    replaceAllUses(k, loop.results[carried[i]], branch->results[i]);

  // Then: a copy of the loop whose casts read as their operands.
  auto then = std::make_unique<Region>();
  std::map<const Value *, Value *> map;
  cloneOps(k, {&loop}, *then, map);
  Op *copy = then->ops.back().get();
  for (size_t j : carried) {
    then->yields.push_back(copy->results[j]);
    copy->results[j]->uses++;
  }
  branch->regions.push_back(std::move(then));
  recountUses(k);
  for (Op *cast : castsIn(*copy->regions[0])) {
    replaceAllUses(k, cast->result, cast->operands[0]);
    eraseOp(k, cast);
  }

  // Else: the loop itself.
  auto otherwise = std::make_unique<Region>();
  OpPosition pos = locate(k, &loop);
  std::unique_ptr<Op> original = std::move(pos.region->ops[pos.index]);
  pos.region->ops.erase(pos.region->ops.begin() + long(pos.index));
  for (size_t j : carried) {
    otherwise->yields.push_back(original->results[j]);
    original->results[j]->uses++;
  }
  otherwise->ops.push_back(std::move(original));
  branch->regions.push_back(std::move(otherwise));
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
