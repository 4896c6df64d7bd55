#include "transforms/WarpSpecialize.h"

#include "ir/Rewriter.h"
#include "transforms/LowerPipeline.h"

#include <map>

namespace tilec {

namespace {

bool contains(const Region &r, OpKind kind) {
  bool found = false;
  walkRegion(r, [&](const Op &op) { found |= op.kind == kind; });
  return found;
}

/// What every thread may run before the producer branches off: no memory through tiles, no
/// barrier (other than the mbarriers' initialization), no shared memory but the schedule's
/// declarations.
bool safeBeforeBranch(const Op &op) {
  if (isRegisterArithmetic(op.kind))
    return true;
  switch (op.kind) {
  case OpKind::Param:
  case OpKind::ProgramId:
  case OpKind::NumPrograms:
  case OpKind::TmaMap:
  case OpKind::SmemRing:
  case OpKind::MbarrierRing:
  case OpKind::StaticAssert:
    return true;
  case OpKind::Load: // one address for every thread
    return op.result && op.result->type.isScalar() && op.operands[0]->type.isScalar();
  case OpKind::If:
  case OpKind::For:
    for (auto &r : op.regions)
      for (auto &inner : r->ops)
        if (!safeBeforeBranch(*inner))
          return false;
    return true;
  default:
    return false;
  }
}

/// What the consumers' part of the loop may hold: no barrier and no shared memory besides
/// reading the stages.
bool safeInConsumers(const Op &op) {
  if (isRegisterArithmetic(op.kind))
    return true;
  switch (op.kind) {
  case OpKind::StageView:
  case OpKind::MbarrierWait:
  case OpKind::AsyncCommit:
    return true;
  case OpKind::Dot:
    return op.operands[0]->type.shared && op.operands[1]->type.shared && !op.dotRegistersA;
  default:
    return false;
  }
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

/// Removes carried variable i of `loop` (its result unused; the body reads its argument only
/// to compute the yield, if at all).
void dropCarried(Kernel &k, Op *loop, size_t i) {
  Region &body = *loop->regions[0];
  Value *yield = body.yields[i];
  --yield->uses;
  body.yields.erase(body.yields.begin() + long(i));
  eraseIfDead(k, yield);
  --loop->operands[3 + i]->uses;
  loop->operands.erase(loop->operands.begin() + long(3 + i));
  body.args.erase(body.args.begin() + long(i + 1));
  loop->results.erase(loop->results.begin() + long(i));
  loop->carriedNames.erase(loop->carriedNames.begin() + long(i));
}

/// Carried variables nobody reads after the loop and the body reads only to update.
void dropDeadCarried(Kernel &k, Op *loop) {
  for (size_t i = loop->results.size(); i-- > 0;) {
    Region &body = *loop->regions[0];
    Value *arg = body.args[i + 1], *yield = body.yields[i];
    if (loop->results[i]->uses)
      continue;
    int readsByUpdate = yield == arg ? 1 : 0;
    if (yield != arg && yield->def && yield->uses == 1 && isRegisterArithmetic(yield->def->kind))
      for (Value *o : yield->def->operands)
        readsByUpdate += o == arg;
    if (arg->uses == readsByUpdate)
      dropCarried(k, loop, i);
  }
}

class Specializer {
public:
  Specializer(Kernel &k, size_t loopAt) : k_(k), loopAt_(loopAt) {}
  bool run();

private:
  Kernel &k_;
  size_t loopAt_;
  Op *loop_ = nullptr, *prologue_ = nullptr, *copies_ = nullptr;
  Value *landed_ = nullptr;

  bool qualifies();
  void buildProducer(Builder &b, Value *freed, Value *thread);
  Op *buildConsumerLoop(Region &dst, Value *freed);
};

bool Specializer::qualifies() {
  Region &top = k_.body;
  loop_ = top.ops[loopAt_].get();
  Region &body = *loop_->regions[0];
  // tma-copies gives the loop's cp.async wait its ring only when every copy is TMA's.
  if (body.ops.size() < 3 || body.ops[0]->kind != OpKind::AsyncWait ||
      body.ops[0]->operands.size() != 1 || body.ops[1]->kind != OpKind::MbarrierWait ||
      body.ops[2]->kind != OpKind::Barrier)
    return false;
  landed_ = body.ops[0]->operands[0];
  // The prologue, then constants (tma-copies' phase) up to the loop.
  size_t p = loopAt_;
  while (p > 0 && top.ops[p - 1]->kind == OpKind::Constant)
    --p;
  if (p == 0 || top.ops[p - 1]->kind != OpKind::For)
    return false;
  prologue_ = top.ops[p - 1].get();
  for (size_t i = 0; i + 1 < p; ++i)
    if (!safeBeforeBranch(*top.ops[i]))
      return false;
  // Those constants go before the prologue: the branches below read them.
  while (top.ops[p]->kind == OpKind::Constant) {
    moveBefore(k_, top.ops[p].get(), prologue_);
    ++p;
  }
  loopAt_ = p;
  // The prologue: for stage { if (k_ahead < hi) { copies } ; k_ahead + step ; commit }.
  const Region &pbody = *prologue_->regions[0];
  const Op *pguard = nullptr;
  for (auto &op : pbody.ops)
    if (op->kind == OpKind::If && contains(*op->regions[0], OpKind::TmaCopy))
      pguard = op.get();
  if (!pguard || contains(*pguard->regions[0], OpKind::AsyncCopy))
    return false;
  // The loop: its copies in one guarded region, everything else the consumers'.
  for (size_t i = 3; i < body.ops.size(); ++i) {
    Op &op = *body.ops[i];
    if (op.kind == OpKind::If && contains(*op.regions[0], OpKind::TmaCopy)) {
      if (copies_ || contains(*op.regions[0], OpKind::AsyncCopy))
        return false;
      copies_ = &op;
    } else if (!safeInConsumers(op)) {
      return false;
    }
  }
  return copies_ != nullptr;
}

/// if (%thread) { for %k = lo to hi (%stage, %phase, producer-carried) { wait until the
/// consumers freed %stage ; the prologue's copies for iteration %k into it } }
void Specializer::buildProducer(Builder &b, Value *freed, Value *thread) {
  Op *guard = b.create(OpKind::If, {thread}, Type{}, /*hasResult=*/false);
  guard->srcText = "the producer: one thread issues every stage's copies";
  guard->line = loop_->line;
  // Attached first: the rewriting below finds ops through the kernel.
  guard->regions.push_back(std::make_unique<Region>());
  guard->regions.push_back(std::make_unique<Region>());
  Region *then = guard->regions[0].get();
  const Region &pbody = *prologue_->regions[0];
  Op *pguard = nullptr;
  for (auto &op : pbody.ops)
    if (op->kind == OpKind::If && contains(*op->regions[0], OpKind::TmaCopy))
      pguard = op.get();
  {
    Builder tb(k_, *then, *loop_);
    Value *zero = constant(tb, 0), *one = constant(tb, 1);
    Op *stages = tb.create(OpKind::Constant, {}, Type::scalarOf(ScalarKind::I32));
    stages->attrs = {pipelineStages()};
    // The prologue's carried inits after k_ahead: the producer's own variables.
    std::vector<Value *> inits = {loop_->operands[0], loop_->operands[1], loop_->operands[2],
                                  zero, zero};
    for (size_t i = 4; i < prologue_->operands.size(); ++i)
      inits.push_back(prologue_->operands[i]);
    Op *ploop = tb.create(OpKind::For, inits, Type{}, /*hasResult=*/false);
    ploop->opcode = loop_->opcode;
    ploop->srcText = "every iteration's copies, into the stage the consumers freed";
    ploop->line = loop_->line;
    ploop->carriedNames = {"stage", "phase"};
    auto body = std::make_unique<Region>();
    Value *k = k_.newValue(pbody.args[1]->type, pbody.args[1]->name);
    Value *stage = k_.newValue(Type::scalarOf(ScalarKind::I32), "stage");
    Value *phase = k_.newValue(Type::scalarOf(ScalarKind::I32), "phase");
    body->args = {k, stage, phase};
    std::map<const Value *, Value *> map = {{pbody.args[0], stage}, {pbody.args[1], k}};
    for (size_t i = 2; i < pbody.args.size(); ++i) {
      Value *a = k_.newValue(pbody.args[i]->type, pbody.args[i]->name);
      body->args.push_back(a);
      map[pbody.args[i]] = a;
      ploop->carriedNames.push_back(prologue_->carriedNames[i - 1]);
    }
    Value *before;
    {
      Builder lb(k_, *body, *loop_);
      before = binary(lb, "^", phase, one, phase->type);
      before->name = "freed_parity";
      Op *wait = lb.create(OpKind::MbarrierWait, {freed, stage, before}, Type{},
                           /*hasResult=*/false);
      wait->srcText = "the consumers are done with this stage's last round";
      wait->line = loop_->line;
    }
    cloneRegion(k_, *pguard->regions[0], *body, map); // yields the producer's variables
    {
      Builder lb(k_, *body, *loop_);
      Value *next = binary(lb, "+", stage, one, stage->type);
      Value *wraps = binary(lb, "==", next, stages->result, Type::scalarOf(ScalarKind::Bool));
      Op *nextStage = lb.create(OpKind::Select, {wraps, zero, next}, stage->type);
      nextStage->result->name = "next_stage";
      Op *nextPhase = lb.create(OpKind::Select, {wraps, before, phase}, phase->type);
      nextPhase->result->name = "next_phase";
      body->yields.insert(body->yields.begin(), {nextStage->result, nextPhase->result});
      ++nextStage->result->uses;
      ++nextPhase->result->uses;
    }
    for (size_t i = 1; i < body->args.size(); ++i)
      ploop->results.push_back(k_.newValue(body->args[i]->type, body->args[i]->name));
    ploop->regions.push_back(std::move(body));
    // The copies become the copy engine's only: this thread has no cp.async alternative.
    std::vector<Op *> tma;
    walkOps(*ploop->regions[0], [&](Op &op) {
      if (op.kind == OpKind::TmaCopy)
        tma.push_back(&op);
    });
    for (Op *c : tma) {
      std::vector<Value *> operands = {c->operands[0], c->operands[3], c->operands[4],
                                       c->operands[5], c->operands[6]};
      if (c->operands.size() > 7) // a stacked box's matrix
        operands.push_back(c->operands[7]);
      Op *load = Builder(k_, c).create(OpKind::TmaLoad, operands, Type{}, /*hasResult=*/false);
      load->attrs = c->attrs;
      load->srcText = c->srcText;
      load->line = c->line;
      load->loc = c->loc;
      Value *ptrs = c->operands[1], *mask = c->operands[2];
      eraseOp(k_, c);
      eraseIfDead(k_, ptrs);
      eraseIfDead(k_, mask);
    }
    dropDeadCarried(k_, ploop);
  }
}

/// A copy of the loop for the consumers: it waits for its stage, computes and frees it.
Op *Specializer::buildConsumerLoop(Region &dst, Value *freed) {
  // cloneRegion copies whole regions: give it one whose only op is the loop (moved back
  // right after).
  std::map<const Value *, Value *> map;
  size_t at = locate(k_, loop_).index;
  Region one;
  one.ops.push_back(std::move(k_.body.ops[at]));
  cloneRegion(k_, one, dst, map);
  k_.body.ops[at] = std::move(one.ops[0]);
  Op *loop = dst.ops.back().get();
  Region &body = *loop->regions[0];
  // The producer's part goes: its copies, the cp.async waits and commits, the barrier.
  Op *copies = nullptr;
  for (auto &op : body.ops)
    if (op->kind == OpKind::If && contains(*op->regions[0], OpKind::TmaCopy))
      copies = op.get();
  for (size_t i = 0; i < copies->results.size(); ++i)
    replaceAllUses(k_, copies->results[i], copies->operands[1 + i]);
  std::vector<Op *> gone = {copies};
  for (auto &op : body.ops)
    if (op->kind == OpKind::AsyncWait || op->kind == OpKind::AsyncCommit ||
        op->kind == OpKind::Barrier)
      gone.push_back(op.get());
  for (Op *op : gone) {
    std::vector<Value *> operands = op->operands;
    for (auto &r : op->regions) // the copies' region: drop what its yields read
      for (Value *&y : r->yields)
        --y->uses;
    eraseOp(k_, op);
    for (Value *o : operands)
      eraseIfDead(k_, o);
  }
  // The stage is free once the last tl::dot that reads it has returned (its wgmmas waited
  // for).
  Op *lastReader = nullptr;
  Value *readStage = nullptr;
  for (auto &op : body.ops)
    if (op->kind == OpKind::Dot)
      for (int i = 0; i < 2; ++i)
        if (const Op *v = op->operands[size_t(i)]->def; v && v->kind == OpKind::StageView) {
          lastReader = op.get();
          readStage = v->operands[1];
        }
  Op *release = Builder(k_, lastReader, /*after=*/true)
                    .create(OpKind::MbarrierRelease, {freed, readStage}, Type{},
                            /*hasResult=*/false);
  release->srcText = "this warp is done reading the stage";
  release->line = loop->line;
  return loop;
}

bool Specializer::run() {
  if (!qualifies())
    return false;
  // Declarations and the decision, right before the prologue (after the mbarrier ring).
  Builder b(k_, prologue_);
  Type ringType = landed_->type;
  Op *freedRing = b.create(OpKind::FreedRing, {}, ringType);
  freedRing->result->name = "freed";
  freedRing->srcText = "the stages the consumers are done reading, one mbarrier each";
  freedRing->line = loop_->line;
  Value *freed = freedRing->result;
  Op *ws = b.create(OpKind::WarpSpecialized, {landed_, freed}, Type::scalarOf(ScalarKind::Bool));
  ws->result->name = "by_producer";
  ws->srcText = "whether a producer warpgroup issues the copies";
  ws->line = loop_->line;
  Op *thread = b.create(OpKind::ProducerThread, {ws->result}, Type::scalarOf(ScalarKind::Bool));
  thread->result->name = "producer";
  thread->line = loop_->line;
  Op *branch = b.create(OpKind::ProducerBranch, {}, Type{}, /*hasResult=*/false);
  branch->srcText = "the producer warpgroup: its first thread issues the copies, then all leave";
  branch->line = loop_->line;
  branch->regions.push_back(std::make_unique<Region>());
  {
    Builder pb(k_, *branch->regions[0], *loop_);
    buildProducer(pb, freed, thread->result);
  }

  // if (%ws) { the consumers' loop } else { the prologue and the loop }: the loop's results
  // that are read after it.
  std::vector<size_t> kept;
  for (size_t i = 0; i < loop_->results.size(); ++i)
    if (loop_->results[i]->uses)
      kept.push_back(i);
  std::vector<Value *> ifOperands = {ws->result};
  for (size_t i : kept)
    ifOperands.push_back(loop_->operands[3 + i]);
  Op *choice = b.create(OpKind::If, ifOperands, Type{}, /*hasResult=*/false);
  choice->srcText = "the consumers' loop when the producer loads, else the loop that copies";
  choice->line = loop_->line;
  choice->regions.push_back(std::make_unique<Region>());
  choice->regions.push_back(std::make_unique<Region>());
  Region *then = choice->regions[0].get(), *otherwise = choice->regions[1].get();
  Op *consumer = buildConsumerLoop(*then, freed);
  // Both paths yield the loop's results; readers after it read the choice's.
  for (size_t i : kept) {
    Value *r = loop_->results[i];
    Value *after = k_.newValue(r->type, r->name);
    after->layout = r->layout;
    after->info = r->info;
    choice->results.push_back(after);
    choice->carriedNames.push_back(loop_->carriedNames[i]);
    replaceAllUses(k_, r, after);
    then->yields.push_back(consumer->results[i]);
    ++consumer->results[i]->uses;
  }
  // The else branch takes the prologue and the loop themselves.
  size_t at = locate(k_, prologue_).index;
  otherwise->ops.push_back(std::move(k_.body.ops[at]));
  otherwise->ops.push_back(std::move(k_.body.ops[at + 1]));
  k_.body.ops.erase(k_.body.ops.begin() + long(at), k_.body.ops.begin() + long(at + 2));
  for (size_t i : kept) {
    otherwise->yields.push_back(loop_->results[i]);
    ++loop_->results[i]->uses;
  }
  // The consumers' loop no longer reads what only the copies needed (the removed region's
  // reads are recounted first).
  recountUses(k_);
  Region &cbody = *consumer->regions[0];
  for (bool erased = true; erased;) {
    erased = false;
    for (auto &op : cbody.ops)
      if (op->result && !op->result->uses && isSideEffectFree(op->kind)) {
        eraseIfDead(k_, op->result);
        erased = true;
        break;
      }
  }
  dropDeadCarried(k_, consumer);
  return true;
}

} // namespace

void runWarpSpecialize(Kernel &k, const Target &target) {
  if (!target.tma || !target.wgmma)
    return;
  // One producer per program: kernels with exactly one loop that qualifies.
  std::vector<size_t> candidates;
  for (size_t i = 0; i < k.body.ops.size(); ++i) {
    const Op &op = *k.body.ops[i];
    if (op.kind == OpKind::For && !op.regions[0]->ops.empty() &&
        op.regions[0]->ops[0]->kind == OpKind::AsyncWait) {
      if (op.noWarpSpecialize) // tl::range(..., {.warp_specialize = false})
        return;
      candidates.push_back(i);
    }
  }
  int pipelined = 0;
  walk(k, [&](const Op &op) { pipelined += op.kind == OpKind::MbarrierRing; });
  if (candidates.size() != 1 || pipelined != 1)
    return;
  Specializer(k, candidates[0]).run();
}

} // namespace tilec
