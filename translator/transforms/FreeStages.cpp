#include "transforms/FreeStages.h"

#include "ir/Rewriter.h"

#include <functional>
#include <map>
#include <set>

namespace tilec {

namespace {

bool contains(const Region &r, OpKind kind) {
  bool found = false;
  walkRegion(r, [&](const Op &op) { found |= op.kind == kind; });
  return found;
}

/// The op of `body` after which no warp reads this iteration's stages: the last tl::dot that
/// reads a stage view of `readStage`, or the dot_wait completing it when it was issued without
/// waiting. Null when a stage view is read by anything else, or in a nested region.
Op *lastStageReader(Region &body, const Value *readStage) {
  std::map<const Value *, int> unaccounted; // stage view -> reads not yet seen
  for (auto &op : body.ops)
    if (op->kind == OpKind::StageView && op->operands[1] == readStage)
      unaccounted[op->result] = op->result->uses;
  if (unaccounted.empty())
    return nullptr;
  Op *last = nullptr;
  std::set<const Value *> inFlight; // stage readers issued without waiting
  for (auto &op : body.ops) {
    if (op->kind == OpKind::Dot) {
      bool reads = false;
      for (size_t i = 0; i < 2; ++i)
        if (auto it = unaccounted.find(op->operands[i]); it != unaccounted.end()) {
          --it->second;
          reads = true;
        }
      if (reads && op->dotNoWait)
        inFlight.insert(op->result);
      else if (reads)
        last = op.get();
    }
    if (op->kind == OpKind::DotWait)
      for (Value *v : op->operands)
        if (inFlight.erase(v))
          last = op.get();
  }
  for (auto &[view, reads] : unaccounted)
    if (reads != 0)
      return nullptr;
  return inFlight.empty() ? last : nullptr;
}

Value *constant(Builder &b, int v) {
  Op *c = b.create(OpKind::Constant, {}, Type::scalarOf(ScalarKind::I32));
  c->attrs = {SymExpr(v)};
  return c->result;
}

Value *binary(Builder &b, const char *opcode, Value *x, Value *y, Type t) {
  Op *o = b.create(OpKind::Binary, {x, y}, t);
  o->opcode = opcode;
  return o->result;
}

/// Rewrites `loop` (in `parent`) as the header describes, when it qualifies.
bool freeStages(Kernel &k, Region &parent, Op *loop) {
  Region &body = *loop->regions[0];
  if (body.ops.size() < 3 || body.ops[0]->kind != OpKind::AsyncWait ||
      body.ops[0]->operands.size() != 1 || body.ops[1]->kind != OpKind::MbarrierWait ||
      body.ops[2]->kind != OpKind::Barrier || !body.ops[2]->operands.empty())
    return false;
  Value *landed = body.ops[0]->operands[0];
  Op *waitLanded = body.ops[1].get();
  if (waitLanded->operands[0] != landed || waitLanded->operands.size() != 3)
    return false;
  Value *readStage = waitLanded->operands[1], *phase = waitLanded->operands[2];
  // The copies: one region of the body's top level; the stage they write.
  Op *copies = nullptr;
  for (auto &op : body.ops)
    if (op->kind == OpKind::If && contains(*op->regions[0], OpKind::TmaCopy))
      copies = copies ? nullptr : op.get();
  if (!copies)
    return false;
  Value *writeStage = nullptr;
  bool oneStage = true;
  walkRegion(*copies->regions[0], [&](const Op &op) {
    if (op.kind != OpKind::TmaCopy)
      return;
    oneStage &= !writeStage || writeStage == op.operands[4];
    writeStage = op.operands[4];
  });
  if (!oneStage || !writeStage || !writeStage->def || locate(k, writeStage->def).region != &body)
    return false;
  Op *lastReader = lastStageReader(body, readStage);
  if (!lastReader)
    return false;
  // After the loop: its ring's invalidation, where the freed ring's goes too.
  size_t at = locate(k, loop).index;
  Op *invalidated = nullptr;
  for (size_t i = at + 1; i < parent.ops.size() && !invalidated; ++i)
    if (parent.ops[i]->kind == OpKind::MbarrierInval && parent.ops[i]->operands[0] == landed)
      invalidated = parent.ops[i].get();
  if (!invalidated)
    return false;

  Op *freedRing = Builder(k, loop).create(OpKind::FreedRing, {landed}, landed->type);
  freedRing->result->name = "freed";
  freedRing->srcText = "the stages every warp is done reading, one mbarrier each";
  freedRing->line = loop->line;
  Value *freed = freedRing->result;
  // The barrier stays for copies by cp.async only.
  addOperand(body.ops[2].get(), landed);
  {
    Builder b(k, copies);
    Value *zero = constant(b, 0), *one = constant(b, 1);
    Value *wraps = binary(b, "==", readStage, zero, Type::scalarOf(ScalarKind::Bool));
    Value *previous = binary(b, "^", phase, one, phase->type);
    // The write stage was last read the iteration before: in the previous round of the ring
    // when this iteration reads stage 0. Before its first round, parity 1 is the phase before
    // the mbarrier's first, complete at once.
    Op *parity = b.create(OpKind::Select, {wraps, previous, phase}, phase->type);
    parity->result->name = "freed_parity";
    Op *wait = b.create(OpKind::MbarrierWait, {freed, writeStage, parity->result}, Type{},
                        /*hasResult=*/false);
    wait->srcText = "every warp is done reading the stage the copies write";
    wait->line = loop->line;
  }
  Op *release = Builder(k, lastReader, /*after=*/true)
                    .create(OpKind::MbarrierRelease, {freed, readStage}, Type{},
                            /*hasResult=*/false);
  release->srcText = "this warp is done reading the stage";
  release->line = loop->line;
  Op *inval = Builder(k, invalidated, /*after=*/true)
                  .create(OpKind::MbarrierInval, {freed}, Type{}, /*hasResult=*/false);
  inval->srcText = invalidated->srcText;
  inval->line = invalidated->line;
  return true;
}

} // namespace

void runFreeStages(Kernel &k, const Target &target) {
  if (!target.tma || !target.wgmma)
    return;
  bool specialized = false;
  walk(k, [&](const Op &op) { specialized |= op.kind == OpKind::WarpSpecialized; });
  if (specialized)
    return;
  // Loops first, rewritten after: the rewriting inserts ops into their regions.
  std::vector<std::pair<Region *, Op *>> loops;
  std::function<void(Region &)> collect = [&](Region &r) {
    for (auto &op : r.ops) {
      if (op->kind == OpKind::For && !op->regions[0]->ops.empty() &&
          op->regions[0]->ops[0]->kind == OpKind::AsyncWait)
        loops.push_back({&r, op.get()});
      for (auto &inner : op->regions)
        collect(*inner);
    }
  };
  collect(k.body);
  for (auto &[parent, loop] : loops)
    freeStages(k, *parent, loop);
}

} // namespace tilec
