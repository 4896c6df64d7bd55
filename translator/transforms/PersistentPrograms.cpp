#include "transforms/PersistentPrograms.h"

#include "ir/Rewriter.h"

#include <map>
#include <set>

namespace tilec {

namespace {

/// What the epilogue may hold when the producer warpgroup is still running: no barrier, no
/// shared memory, no early return.
bool safeInEpilogue(const Op &op) {
  if (isRegisterArithmetic(op.kind))
    return true;
  switch (op.kind) {
  case OpKind::Param:
  case OpKind::ProgramId:
  case OpKind::Store:
  case OpKind::Atomic:
  case OpKind::Random:
  case OpKind::Print:
  case OpKind::Assert:
  case OpKind::StaticAssert:
    return true;
  case OpKind::Load:
    return !op.operands[0]->type.shared;
  case OpKind::If:
  case OpKind::For:
  case OpKind::While:
    for (auto &r : op.regions)
      for (auto &inner : r->ops)
        if (!safeInEpilogue(*inner))
          return false;
    return true;
  default:
    return false;
  }
}

/// The values `op` reads, its nested regions' reads and yields included.
void readsOf(const Op &op, std::set<const Value *> &out) {
  for (const Value *v : op.operands)
    out.insert(v);
  for (auto &r : op.regions) {
    for (auto &inner : r->ops)
      readsOf(*inner, out);
    for (const Value *y : r->yields)
      out.insert(y);
  }
}

/// Makes every read of a value in `map` inside `r` read its image (use counts are recounted
/// by the caller).
void remapIn(Region &r, const std::map<const Value *, Value *> &map) {
  auto mapped = [&](Value *&v) {
    auto it = map.find(v);
    if (it != map.end())
      v = it->second;
  };
  for (auto &op : r.ops) {
    for (Value *&v : op->operands)
      mapped(v);
    for (auto &sub : op->regions)
      remapIn(*sub, map);
  }
  for (Value *&y : r.yields)
    mapped(y);
}

/// Removes `op` from its region and returns it.
std::unique_ptr<Op> take(Kernel &k, const Op *op) {
  OpPosition at = locate(k, op);
  std::unique_ptr<Op> out = std::move(at.region->ops[at.index]);
  at.region->ops.erase(at.region->ops.begin() + long(at.index));
  return out;
}

Value *scalarOp(Builder &b, OpKind kind, const char *name) {
  Op *o = b.create(kind, {}, Type::scalarOf(ScalarKind::I32));
  o->axis = 0;
  o->result->name = name;
  return o->result;
}

class Persistence {
public:
  explicit Persistence(Kernel &k) : k_(k) {}
  bool run();

private:
  Kernel &k_;
  Op *branch_ = nullptr, *choice_ = nullptr, *wait_ = nullptr, *inval_ = nullptr;
  Op *consumerLoop_ = nullptr, *producerLoop_ = nullptr;
  std::vector<const Op *> before_; // the top-level ops before the producer branch
  std::vector<Op *> epilogue_;
  Value *first_ = nullptr, *programs_ = nullptr, *blocks_ = nullptr;

  bool qualifies();
  /// A loop over this block's programs at the end of `dst`, carrying `inits`; its body starts
  /// with the program's values that `moved` reads (recomputed for %program), then `moved`.
  Op *loopOverPrograms(Region &dst, const Op &locFrom, std::vector<Value *> inits,
                       std::vector<std::string> names, std::vector<std::unique_ptr<Op>> moved);
};

bool Persistence::qualifies() {
  // A ring the copy engine fills only for some programs (a stacked map's matrix >= 0) is
  // decided per program; a persistent block decides once.
  bool numPrograms = false, guardedRing = false;
  walk(k_, [&](const Op &op) {
    numPrograms |= op.kind == OpKind::NumPrograms;
    guardedRing |= op.kind == OpKind::MbarrierRing && !op.operands.empty();
  });
  if (numPrograms || guardedRing)
    return false;
  Region &top = k_.body;
  size_t at = 0;
  while (at < top.ops.size() && top.ops[at]->kind != OpKind::ProducerBranch)
    ++at;
  if (at + 4 >= top.ops.size())
    return false;
  branch_ = top.ops[at].get();
  choice_ = top.ops[at + 1].get();
  wait_ = top.ops[at + 2].get();
  inval_ = top.ops[at + 4].get();
  if (choice_->kind != OpKind::If || !choice_->operands[0]->def ||
      choice_->operands[0]->def->kind != OpKind::WarpSpecialized ||
      wait_->kind != OpKind::AsyncWait || top.ops[at + 3]->kind != OpKind::Barrier ||
      inval_->kind != OpKind::MbarrierInval)
    return false;
  for (size_t i = 0; i < at; ++i)
    before_.push_back(top.ops[i].get());
  for (size_t i = at + 5; i < top.ops.size(); ++i) {
    if (!safeInEpilogue(*top.ops[i]))
      return false;
    epilogue_.push_back(top.ops[i].get());
  }
  // The consumers' loop waits on its stage first: mbarrier_wait %landed, %read_stage, %phase.
  for (auto &op : choice_->regions[0]->ops)
    if (op->kind == OpKind::For)
      consumerLoop_ = op.get();
  if (!consumerLoop_ || consumerLoop_->regions[0]->ops.empty() ||
      consumerLoop_->regions[0]->ops[0]->kind != OpKind::MbarrierWait)
    return false;
  // The producer's loop carries (%stage, %phase) first (warp-specialize builds it so).
  const Region &pbranch = *branch_->regions[0];
  if (pbranch.ops.size() != 1 || pbranch.ops[0]->kind != OpKind::If)
    return false;
  for (auto &op : pbranch.ops[0]->regions[0]->ops)
    if (op->kind == OpKind::For)
      producerLoop_ = op.get();
  return producerLoop_ && producerLoop_->carriedNames.size() >= 2 &&
         producerLoop_->carriedNames[0] == "stage" && producerLoop_->carriedNames[1] == "phase";
}

Op *Persistence::loopOverPrograms(Region &dst, const Op &locFrom, std::vector<Value *> inits,
                                  std::vector<std::string> names,
                                  std::vector<std::unique_ptr<Op>> moved) {
  Builder b(k_, dst, locFrom);
  std::vector<Value *> operands = {first_, programs_, blocks_};
  operands.insert(operands.end(), inits.begin(), inits.end());
  Op *loop = b.create(OpKind::For, operands, Type{}, /*hasResult=*/false);
  loop->opcode = "<";
  loop->carriedNames = names;
  auto body = std::make_unique<Region>();
  Value *program = k_.newValue(Type::scalarOf(ScalarKind::I32), "program");
  body->args.push_back(program);
  for (size_t i = 0; i < inits.size(); ++i) {
    body->args.push_back(k_.newValue(inits[i]->type, names[i]));
    loop->results.push_back(k_.newValue(inits[i]->type, names[i]));
  }
  // The program's values the moved ops read, in program order, recomputed for %program.
  std::set<const Value *> needed;
  for (auto &op : moved)
    readsOf(*op, needed);
  std::vector<const Op *> recomputed;
  std::map<const Value *, Value *> map;
  auto isProgramId = [](const Op &op) { return op.kind == OpKind::ProgramId && op.axis == 0; };
  for (size_t i = before_.size(); i-- > 0;) {
    const Op *op = before_[i];
    bool defines = op->result && needed.count(op->result);
    for (const Value *r : op->results)
      defines |= needed.count(r) > 0;
    if (!defines)
      continue;
    if (isProgramId(*op)) {
      map[op->result] = program;
      continue;
    }
    bool perProgram = isRegisterArithmetic(op->kind) || op->kind == OpKind::Load ||
                      op->kind == OpKind::If || op->kind == OpKind::For;
    if (!perProgram)
      continue;
    recomputed.insert(recomputed.begin(), op);
    readsOf(*op, needed);
  }
  cloneOps(k_, recomputed, *body, map);
  for (auto &op : moved)
    body->ops.push_back(std::move(op));
  // Program ids read inside the moved ops are %program too.
  walkOps(*body, [&](Op &op) {
    if (isProgramId(op))
      map[op.result] = program;
  });
  remapIn(*body, map);
  loop->regions.push_back(std::move(body));
  return loop;
}

bool Persistence::run() {
  if (!qualifies())
    return false;
  {
    Builder b(k_, branch_);
    first_ = scalarOp(b, OpKind::ProgramId, "first_program");
    programs_ = scalarOp(b, OpKind::Programs, "");
    blocks_ = scalarOp(b, OpKind::NumPrograms, "blocks");
  }

  // The producer: its loop over the copies of one program, inside a loop over the programs.
  {
    Region &guard = *locate(k_, producerLoop_).region;
    std::vector<Value *> inits = {producerLoop_->operands[3], producerLoop_->operands[4]};
    std::vector<std::unique_ptr<Op>> moved;
    moved.push_back(take(k_, producerLoop_));
    Op *loop = loopOverPrograms(guard, *branch_, inits, {"ring_stage", "ring_phase"},
                                std::move(moved));
    loop->srcText = "the copies of this block's programs in turn";
    loop->line = producerLoop_->line;
    Region &body = *loop->regions[0];
    Value *stage = body.args[1], *phase = body.args[2];
    producerLoop_->operands[3] = stage;
    producerLoop_->operands[4] = phase;
    body.yields = {producerLoop_->results[0], producerLoop_->results[1]};
  }

  // The consumers: the choice and the epilogue, in a loop over the programs; the consumers'
  // loop carries its stage and phase from one program to the next.
  {
    Region &loopBody = *consumerLoop_->regions[0];
    const Op &firstWait = *loopBody.ops[0];
    size_t stageAt = 0, phaseAt = 0;
    for (size_t i = 1; i < loopBody.args.size(); ++i) {
      if (loopBody.args[i] == firstWait.operands[1])
        stageAt = i - 1;
      if (loopBody.args[i] == firstWait.operands[2])
        phaseAt = i - 1;
    }
    std::vector<Value *> inits = {consumerLoop_->operands[3 + stageAt],
                                  consumerLoop_->operands[3 + phaseAt]};
    // The loop that copies (no producer) runs each program from a fresh pipeline.
    {
      Region &fallback = *choice_->regions[1];
      Builder fb(k_, fallback, *choice_);
      Op *w = fb.clone(*wait_, wait_->operands, Type{});
      w->srcText = wait_->srcText;
      Op *restart = fb.create(OpKind::MbarrierRestart, {inval_->operands[0]}, Type{},
                              /*hasResult=*/false);
      restart->srcText = "the next program's copies start from empty stages";
      restart->line = choice_->line;
    }
    std::vector<std::unique_ptr<Op>> moved;
    moved.push_back(take(k_, choice_));
    for (Op *op : epilogue_)
      moved.push_back(take(k_, op));
    Op *loop = loopOverPrograms(k_.body, *choice_, inits, {"ring_stage", "ring_phase"},
                                std::move(moved));
    loop->srcText = "this block's programs in turn: one, unless the launch is persistent";
    loop->line = choice_->line;
    // It goes before the teardown (async_wait, barrier, mbarrier_inval), now after it.
    moveBefore(k_, loop, wait_);
    Region &body = *loop->regions[0];
    Value *stage = body.args[1], *phase = body.args[2];
    consumerLoop_->operands[3 + stageAt] = stage;
    consumerLoop_->operands[3 + phaseAt] = phase;
    // The choice yields the consumers' position in the ring (the loop that copies leaves it).
    choice_->operands.push_back(stage);
    choice_->operands.push_back(phase);
    for (const char *n : {"ring_stage_after", "ring_phase_after"}) {
      choice_->results.push_back(k_.newValue(Type::scalarOf(ScalarKind::I32), n));
      choice_->carriedNames.push_back(n);
    }
    choice_->regions[0]->yields.push_back(consumerLoop_->results[stageAt]);
    choice_->regions[0]->yields.push_back(consumerLoop_->results[phaseAt]);
    choice_->regions[1]->yields.push_back(stage);
    choice_->regions[1]->yields.push_back(phase);
    size_t n = choice_->results.size();
    body.yields = {choice_->results[n - 2], choice_->results[n - 1]};
  }

  // What the programs' loops recompute is no longer read before them.
  recountUses(k_);
  for (bool erased = true; erased;) {
    erased = false;
    for (auto &owned : k_.body.ops) {
      Op *op = owned.get();
      if (!op->result || op->result->uses || op->kind == OpKind::Param)
        continue;
      if (op->kind == OpKind::Load && !op->isVolatile)
        eraseOp(k_, op); // a scalar read for the program, now read per program
      else if (isSideEffectFree(op->kind))
        eraseIfDead(k_, op->result);
      else
        continue;
      erased = true;
      break;
    }
  }
  recountUses(k_);
  return true;
}

} // namespace

bool hasPersistentPrograms(const Kernel &k) {
  bool found = false;
  walk(k, [&](const Op &op) { found |= op.kind == OpKind::Programs; });
  return found;
}

void runPersistentPrograms(Kernel &k, const Target &target) {
  if (!target.tma || !target.wgmma)
    return;
  Persistence(k).run();
}

} // namespace tilec
