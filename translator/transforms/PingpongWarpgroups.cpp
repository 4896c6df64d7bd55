#include "transforms/PingpongWarpgroups.h"

#include "ir/Rewriter.h"

#include <functional>
#include <set>

namespace tilec {

namespace {

bool hasNestedDot(const Op &op) {
  bool found = false;
  for (auto &r : op.regions)
    walkRegion(*r, [&](const Op &o) { found |= o.kind == OpKind::Dot; });
  return found;
}

/// Whether a tl::dot of `body` reads, through the body's arithmetic, another dot's result of
/// the same iteration: between the two the tensor cores wait for the arithmetic. (A dot that
/// takes another's result as it is, as its accumulator, waits for no arithmetic.)
bool dotsFeedDots(const Region &body) {
  std::set<const Value *> products, computed; // dot results; values computed from them
  for (auto &op : body.ops) {
    bool readsProduct = false, readsComputed = false;
    auto check = [&](const Op &o) {
      for (const Value *v : o.operands) {
        readsProduct |= products.count(v) > 0;
        readsComputed |= computed.count(v) > 0;
      }
    };
    check(*op);
    for (auto &r : op->regions)
      walkRegion(*r, check);
    if (op->kind == OpKind::Dot) {
      if (readsComputed)
        return true;
      products.insert(op->result);
    } else if (readsProduct || readsComputed) {
      if (op->result)
        computed.insert(op->result);
      for (const Value *v : op->results)
        computed.insert(v);
    }
  }
  return false;
}

Op *turnOp(Builder &b, OpKind kind, std::vector<Value *> operands, const Op *loop) {
  Op *op = b.create(kind, std::move(operands), Type{}, /*hasResult=*/false);
  op->line = loop->line;
  return op;
}

/// Rewrites `loop` as the header describes, when it qualifies.
void takeTurns(Kernel &k, Op *loop) {
  Region &body = *loop->regions[0];
  bool freed = false;
  std::vector<Op *> dots;
  for (auto &op : body.ops) {
    freed |= op->kind == OpKind::MbarrierRelease;
    if (hasNestedDot(*op))
      return;
    if (op->kind == OpKind::Dot) {
      if (!dotStagesNothing(*op))
        return;
      dots.push_back(op.get());
    }
  }
  // overlap-dots pairs every dot it issues without waiting with the next one.
  if (!freed || dots.size() < 2 || dots.back()->dotNoWait || !dotsFeedDots(body))
    return;

  Op *flagOp = Builder(k, loop).create(OpKind::WarpgroupTurns, {},
                                       Type::scalarOf(ScalarKind::Bool));
  flagOp->result->name = "turns";
  flagOp->srcText = "the two warpgroups take turns at the tensor cores";
  flagOp->line = loop->line;
  Value *flag = flagOp->result;
  {
    Builder after(k, loop, /*after=*/true);
    turnOp(after, OpKind::TurnsFinish, {flag}, loop);
  }
  for (size_t i = 0; i < dots.size(); ++i) {
    Op *first = dots[i];
    std::vector<Op *> turn = {first};
    Op *pairWait = nullptr; // overlap-dots' dot_wait completing `first`
    if (first->dotNoWait) {
      // An overlap-dots pair: the next dot, then the dot_wait completing the first.
      turn.push_back(dots[++i]);
      OpPosition at = locate(k, turn[1]);
      if (at.index + 1 < body.ops.size() && body.ops[at.index + 1]->kind == OpKind::DotWait)
        pairWait = body.ops[at.index + 1].get();
    }
    Op *last = turn.back();
    // The turn passes right after the issue: nothing runs between the last dot and its wait
    // but the hand-over, so even an A operand in registers stays untouched while in flight.
    bool inFlight = !first->dotNoWait || pairWait;
    Builder before(k, first);
    turnOp(before, OpKind::TurnBegin, {flag}, loop);
    std::vector<Value *> ends = {flag};
    for (Op *d : turn)
      ends.push_back(d->result);
    if (inFlight) {
      // Issued without waiting; the turn passes, then the wait (which also completes the
      // pair's first dot).
      last->dotNoWait = true;
      Builder after(k, last, /*after=*/true);
      turnOp(after, OpKind::TurnEnd, ends, loop);
      if (pairWait) {
        addOperand(pairWait, last->result); // right after the turn's end
      } else {
        Op *wait = after.create(OpKind::DotWait, {last->result}, Type{}, /*hasResult=*/false);
        wait->line = loop->line;
      }
    } else {
      // A pair whose first dot completes later: the turn passes once both are issued.
      Builder after(k, last, /*after=*/true);
      turnOp(after, OpKind::TurnEnd, ends, loop);
    }
  }
}

} // namespace

void runPingpongWarpgroups(Kernel &k, const Target &target) {
  if (!target.wgmma)
    return;
  bool specialized = false;
  walk(k, [&](const Op &op) { specialized |= op.kind == OpKind::WarpSpecialized; });
  if (specialized)
    return;
  std::vector<Op *> loops;
  std::function<void(Region &)> collect = [&](Region &r) {
    for (auto &op : r.ops) {
      if (op->kind == OpKind::For)
        loops.push_back(op.get());
      for (auto &inner : op->regions)
        collect(*inner);
    }
  };
  collect(k.body);
  for (Op *loop : loops)
    takeTurns(k, loop);
}

} // namespace tilec
