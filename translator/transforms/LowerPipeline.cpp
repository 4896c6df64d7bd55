#include "transforms/LowerPipeline.h"

#include "ir/Rewriter.h"

#include <algorithm>
#include <functional>
#include <map>

namespace tilec {

const SymExpr &pipelineStages() {
  static const SymExpr stages = SymExpr::expr("PIPELINE_STAGES", true);
  return stages;
}

namespace {

/// What a pipelined load's buffers are called: after the load (`a`), else after its
/// pointers without their `_ptrs` (`a_ptrs` -> `a`).
std::string operandName(const Op &load) {
  if (!load.result->name.empty())
    return load.result->name;
  std::string p = load.operands[0]->name;
  for (const char *suffix : {"_ptrs", "_ptr"}) {
    std::string s = suffix;
    if (p.size() > s.size() && p.compare(p.size() - s.size(), s.size(), s) == 0)
      return p.substr(0, p.size() - s.size());
  }
  return p.empty() ? "tile" : p;
}

class Lowering {
public:
  Lowering(Kernel &k, Op &loop) : k_(k), loop_(loop), body_(*loop.regions[0]) {}
  void run();

private:
  Kernel &k_;
  Op &loop_;
  Region &body_;
  std::vector<size_t> producerCarried_; // indices of the carried variables only the producer uses
  std::map<const Op *, Value *> rings_; // by pipelined load
  std::vector<Value *> copies_;         // what the producer's clones compute
  // Use counts before the producer is cloned, by value id, and the values from outside the loop
  // that the clones recompute (see producerIf).
  std::vector<int> usesBefore_;
  std::vector<Value *> recomputed_;

  void carryDistances();
  Value *constant(Builder &b, const SymExpr &v, ScalarKind kind) {
    Op *c = b.create(OpKind::Constant, {}, Type::scalarOf(kind));
    c->attrs = {v};
    return c->result;
  }
  void readInUsersLayouts();
  std::vector<Value *> producerIf(Builder &b, const std::vector<std::unique_ptr<Op>> &ops,
                                  Value *ivNow, Value *stage,
                                  const std::vector<Value *> &carriedNow);
};

/// Producer-carried pointer tiles advanced by a scalar (`p = p + s`), started from an addptr
/// and not read after the loop, become the distance advanced: `p` is then `init + distance`,
/// with `init` recomputed in the loop.
void Lowering::carryDistances() {
  for (size_t j = 0; j < loop_.results.size(); ++j) {
    Value *arg = body_.args[j + 1], *init = loop_.operands[3 + j], *next = body_.yields[j];
    Op *advance = next->def;
    bool ok = loop_.producerCarried[j] && arg->type.pointer && arg->type.isTile() &&
              loop_.results[j]->uses == 0 && advance && advance->kind == OpKind::AddPtr &&
              advance->operands[0] == arg && advance->operands[1]->type.isScalar() &&
              next->uses == 1 && init->def && init->def->kind == OpKind::AddPtr;
    if (!ok)
      continue;
    Type i64 = Type::scalarOf(ScalarKind::I64);
    std::string name = loop_.carriedNames[j] + "_advance";
    Value *distance = k_.newValue(i64, name);
    Op *firstUser = nullptr; // the pointers are recomputed right before it
    for (auto &op : body_.ops)
      if (!firstUser && std::count(op->operands.begin(), op->operands.end(), arg))
        firstUser = op.get();
    Builder top(k_, firstUser);
    Op *base = top.clone(*init->def, init->def->operands, init->type);
    Op *now = top.create(OpKind::AddPtr, {base->result, distance}, arg->type);
    now->result->layout = arg->layout;
    now->result->info = arg->info;
    now->result->name = arg->name;
    base->stage = now->stage = Op::Stage::Producer;
    replaceAllUses(k_, arg, now->result);

    Value *by = advance->operands[1];
    Builder b(k_, advance, /*after=*/true);
    if (!(by->type.elem == i64.elem)) {
      Op *widen = b.create(OpKind::Cast, {by}, i64);
      widen->stage = Op::Stage::Producer;
      by = widen->result;
    }
    Op *add = b.create(OpKind::Binary, {distance, by}, i64);
    add->opcode = "+";
    add->stage = Op::Stage::Producer;
    body_.yields[j] = add->result;
    add->result->uses++;
    next->uses--;
    eraseIfDead(k_, next);

    Op *zero = Builder(k_, &loop_).create(OpKind::Constant, {}, i64);
    zero->attrs = {SymExpr(0)};
    loop_.operands[3 + j] = zero->result;
    zero->result->uses++;
    init->uses--;
    body_.args[j + 1] = distance;
    loop_.results[j] = k_.newValue(i64, name);
    loop_.carriedNames[j] = name;
    eraseIfDead(k_, init);
  }
}

/// A layout conversion of a stage_read's result becomes a second stage_read, in the layout
/// converted to: the stage is in shared memory already, so a conversion (a round trip
/// through the scratch buffer between two barriers) would only read it again.
void Lowering::readInUsersLayouts() {
  recountUses(k_); // the producer's ops left the body without giving their uses back
  std::vector<Op *> conversions;
  for (auto &op : body_.ops)
    if (op->kind == OpKind::ConvertLayout && op->operands[0]->def &&
        op->operands[0]->def->kind == OpKind::StageRead)
      conversions.push_back(op.get());
  for (Op *op : conversions) {
    const Op *read = op->operands[0]->def;
    Op *reread =
        Builder(k_, op).create(OpKind::StageRead, {read->operands[0]}, op->result->type);
    reread->result->name = op->result->name.empty() ? read->result->name : op->result->name;
    reread->result->layout = op->result->layout;
    reread->result->info = op->result->info;
    replaceAllUses(k_, op->result, reread->result);
    eraseOp(k_, op);
  }
  // The reads only conversions read are gone with them.
  for (size_t i = body_.ops.size(); i-- > 0;)
    if (body_.ops[i]->kind == OpKind::StageRead && body_.ops[i]->result->uses == 0)
      eraseOp(k_, body_.ops[i].get());
}

/// `if (ivNow CMP hi) { the producer for iteration ivNow, copying into `stage` }`, carrying
/// the producer's variables (`carriedNow`); returns their values after it. `ops` is the
/// loop's body as PipelineLoads marked it.
std::vector<Value *> Lowering::producerIf(Builder &b, const std::vector<std::unique_ptr<Op>> &ops,
                                          Value *ivNow, Value *stage,
                                          const std::vector<Value *> &carriedNow) {
  Op *inRange =
      b.create(OpKind::Binary, {ivNow, loop_.operands[1]}, Type::scalarOf(ScalarKind::Bool));
  inRange->opcode = loop_.opcode;
  std::vector<Value *> operands = {inRange->result};
  operands.insert(operands.end(), carriedNow.begin(), carriedNow.end());
  Op *guard = b.create(OpKind::If, operands, Type{}, /*hasResult=*/false);
  guard->srcText = "the copies for iteration " + (ivNow->name.empty() ? "ahead" : ivNow->name) +
                   ", if there is one";
  guard->line = loop_.line;

  auto then = std::make_unique<Region>();
  std::map<const Value *, Value *> map = {{body_.args[0], ivNow}};
  for (size_t i = 0; i < producerCarried_.size(); ++i)
    map[body_.args[producerCarried_[i] + 1]] = carriedNow[i];
  Builder tb(k_, *then, loop_);
  // A value from outside the loop that only the producer read, computed by register
  // arithmetic the emitter would have folded into its one use (no variable of its own), is
  // recomputed here too: the prologue's and the loop's copies then do not make it a tile
  // held in registers across the loop.
  std::function<Value *(Value *)> mapped = [&](Value *v) -> Value * {
    if (auto it = map.find(v); it != map.end())
      return it->second;
    bool foldedIntoUse = v->def && isRegisterArithmetic(v->def->kind) && v->name.empty() &&
                         size_t(v->id) < usesBefore_.size() && usesBefore_[size_t(v->id)] == 1;
    if (!foldedIntoUse)
      return v;
    std::vector<Value *> ins;
    for (Value *o : v->def->operands)
      ins.push_back(mapped(o));
    Op *c = tb.clone(*v->def, ins, v->type);
    recomputed_.push_back(v);
    copies_.push_back(c->result);
    return map[v] = c->result;
  };
  for (auto &op : ops) {
    if (op->stage == Op::Stage::Consumer)
      continue;
    std::vector<Value *> ins;
    for (Value *v : op->operands)
      ins.push_back(mapped(v));
    if (!op->asyncCopy) {
      Op *c = tb.clone(*op, ins, op->result->type);
      c->result->name = op->result->name;
      copies_.push_back(c->result);
      map[op->result] = c->result;
      continue;
    }
    Type t = op->result->type;
    t.shared = true;
    Op *view = tb.create(OpKind::StageView, {rings_.at(op.get()), stage}, t);
    view->result->name = operandName(*op) + "_next";
    ins.resize(std::min<size_t>(ins.size(), 2)); // the `other` is zero: what the copy fills in
    ins.insert(ins.begin(), view->result);
    Op *copy = tb.create(OpKind::AsyncCopy, ins, Type{}, /*hasResult=*/false);
    copy->accessWidth = op->accessWidth;
    copy->srcText = op->srcText;
    copy->line = op->line;
    copy->loc = op->loc;
  }
  for (size_t j : producerCarried_)
    then->yields.push_back(mapped(body_.yields[j]));
  auto otherwise = std::make_unique<Region>();
  otherwise->yields = carriedNow;
  guard->regions.push_back(std::move(then));
  guard->regions.push_back(std::move(otherwise));

  std::vector<Value *> after;
  for (size_t i = 0; i < producerCarried_.size(); ++i) {
    std::string name = loop_.carriedNames[producerCarried_[i]];
    guard->carriedNames.push_back(name);
    after.push_back(k_.newValue(carriedNow[i]->type, name));
  }
  guard->results = after;
  return after;
}

void Lowering::run() {
  carryDistances();
  for (size_t j = 0; j < loop_.producerCarried.size(); ++j)
    if (loop_.producerCarried[j])
      producerCarried_.push_back(j);
  Value *lo = loop_.operands[0], *step = loop_.operands[2], *iv = body_.args[0];
  std::string ivName = iv->name.empty() ? "k" : iv->name;
  const SymExpr &S = pipelineStages();
  for (auto &v : k_.values)
    usesBefore_.push_back(v->uses);

  // Before the loop: the rings, and the prologue that fills all stages but one.
  Builder before(k_, &loop_);
  // The tl::dot operands' rings first: each starts at a multiple of their swizzle pattern as
  // long as only rank-1 rings (of any size) come after them.
  std::vector<Op *> staged;
  for (bool rank1 : {false, true})
    for (auto &op : body_.ops)
      if (op->asyncCopy && (op->result->type.shape.size() == 1) == rank1)
        staged.push_back(op.get());
  for (Op *op : staged) {
    Type t = op->result->type;
    t.shared = true;
    t.shape.insert(t.shape.begin(), S);
    Op *ring = before.create(OpKind::SmemRing, {}, t);
    ring->result->name = operandName(*op) + "_stages";
    ring->srcText = op->srcText;
    ring->line = op->line;
    rings_[op] = ring->result;
  }
  Value *zero = constant(before, 0, ScalarKind::I32);
  Value *one = constant(before, 1, ScalarKind::I32);
  Value *stages = constant(before, S, ScalarKind::I32);
  Value *stagesLess1 = constant(before, S - SymExpr(1), ScalarKind::I32);

  std::vector<Value *> prologueInits = {zero, stagesLess1, one, lo};
  for (size_t j : producerCarried_)
    prologueInits.push_back(loop_.operands[3 + j]);
  Op *prologue = before.create(OpKind::For, prologueInits, Type{}, /*hasResult=*/false);
  prologue->opcode = "<";
  prologue->srcText = "prologue: the copies for the first STAGES - 1 iterations";
  prologue->line = loop_.line;
  prologue->carriedNames.push_back(ivName + "_ahead");
  auto pbody = std::make_unique<Region>();
  Value *stage = k_.newValue(Type::scalarOf(ScalarKind::I32), "stage");
  Value *ahead = k_.newValue(iv->type, ivName + "_ahead");
  pbody->args = {stage, ahead};
  std::vector<Value *> carriedNow;
  for (size_t j : producerCarried_) {
    prologue->carriedNames.push_back(loop_.carriedNames[j]);
    carriedNow.push_back(k_.newValue(body_.args[j + 1]->type, loop_.carriedNames[j]));
    pbody->args.push_back(carriedNow.back());
  }
  {
    Builder pb(k_, *pbody, loop_);
    std::vector<Value *> after = producerIf(pb, body_.ops, ahead, stage, carriedNow);
    Op *next = pb.create(OpKind::Binary, {ahead, step}, iv->type);
    next->opcode = "+";
    pb.create(OpKind::AsyncCommit, {}, Type{}, /*hasResult=*/false);
    pbody->yields = {next->result};
    pbody->yields.insert(pbody->yields.end(), after.begin(), after.end());
  }
  prologue->regions.push_back(std::move(pbody));
  prologue->results.push_back(k_.newValue(iv->type, ivName + "_ahead"));
  for (size_t j : producerCarried_)
    prologue->results.push_back(k_.newValue(body_.args[j + 1]->type, loop_.carriedNames[j]));

  // The loop carries the producer's variables from the prologue, the next iteration to copy
  // for and the stage to read.
  for (size_t i = 0; i < producerCarried_.size(); ++i)
    loop_.operands[3 + producerCarried_[i]] = prologue->results[i + 1];
  Value *aheadInLoop = k_.newValue(iv->type, ivName + "_ahead");
  Value *readStage = k_.newValue(Type::scalarOf(ScalarKind::I32), "read_stage");
  loop_.operands.push_back(prologue->results[0]);
  loop_.operands.push_back(zero);
  loop_.carriedNames.push_back(ivName + "_ahead");
  loop_.carriedNames.push_back("read_stage");
  loop_.results.push_back(k_.newValue(iv->type, ivName + "_ahead"));
  loop_.results.push_back(k_.newValue(Type::scalarOf(ScalarKind::I32), "read_stage"));

  std::vector<std::unique_ptr<Op>> old = std::move(body_.ops);
  body_.ops.clear();
  std::vector<Value *> producerArgs;
  for (size_t j : producerCarried_)
    producerArgs.push_back(body_.args[j + 1]);
  body_.args.push_back(aheadInLoop);
  body_.args.push_back(readStage);
  std::vector<Value *> yields = body_.yields;
  {
    Builder mb(k_, body_, loop_);
    Op *wait = mb.create(OpKind::AsyncWait, {}, Type{}, /*hasResult=*/false);
    wait->attrs = {S - SymExpr(2)};
    wait->srcText = "this iteration's stage has landed";
    wait->line = loop_.line;
    Op *barrier = mb.create(OpKind::Barrier, {}, Type{}, /*hasResult=*/false);
    barrier->srcText = "every thread is done with the stage the last iteration read";
    barrier->line = loop_.line;
    Op *sum =
        mb.create(OpKind::Binary, {readStage, stagesLess1}, Type::scalarOf(ScalarKind::I32));
    sum->opcode = "+";
    Op *writeStage = mb.create(OpKind::Binary, {sum->result, stages}, sum->result->type);
    writeStage->opcode = "%";
    writeStage->result->name = "write_stage";
    std::vector<Value *> after = producerIf(mb, old, aheadInLoop, writeStage->result, producerArgs);
    for (size_t i = 0; i < producerCarried_.size(); ++i)
      yields[producerCarried_[i]] = after[i];
    Op *next = mb.create(OpKind::Binary, {aheadInLoop, step}, iv->type);
    next->opcode = "+";
    yields.push_back(next->result);
    mb.create(OpKind::AsyncCommit, {}, Type{}, /*hasResult=*/false);
  }
  // The rest of the iteration, its loads now reading their stage: tl::dot reads a rank-2
  // stage where it is, other users a rank-1 stage through stage_read.
  std::vector<std::pair<Value *, Value *>> views; // (load, the stage it reads)
  for (auto &op : old) {
    if (op->asyncCopy) {
      Type t = op->result->type;
      t.shared = true;
      Builder b(k_, body_, *op);
      Op *view = b.create(OpKind::StageView, {rings_.at(op.get()), readStage}, t);
      view->result->name = operandName(*op);
      Value *now = view->result;
      if (t.shape.size() == 1) {
        view->result->name += "_stage";
        Op *read = b.create(OpKind::StageRead, {view->result}, op->result->type);
        read->result->name = operandName(*op);
        read->result->layout = op->result->layout;
        read->result->info = op->result->info;
        now = read->result;
      }
      views.push_back({op->result, now});
    }
    if (op->stage == Op::Stage::Producer) {
      if (op->result)
        op->result->def = nullptr;
      continue;
    }
    op->stage = Op::Stage::Consumer;
    body_.ops.push_back(std::move(op));
  }
  for (auto &[load, view] : views)
    replaceAllUses(k_, load, view);
  readInUsersLayouts();
  {
    Builder mb(k_, body_, loop_);
    Op *inc = mb.create(OpKind::Binary, {readStage, one}, readStage->type);
    inc->opcode = "+";
    Op *wraps =
        mb.create(OpKind::Binary, {inc->result, stages}, Type::scalarOf(ScalarKind::Bool));
    wraps->opcode = "==";
    Op *nextStage = mb.create(OpKind::Select, {wraps->result, zero, inc->result}, readStage->type);
    nextStage->result->name = "next_stage";
    yields.push_back(nextStage->result);
  }
  body_.yields = yields;

  Builder after(k_, &loop_, /*after=*/true);
  Op *drain = after.create(OpKind::AsyncWait, {}, Type{}, /*hasResult=*/false);
  drain->attrs = {SymExpr(0)};
  drain->srcText = "no copy is in flight";
  drain->line = loop_.line;
  Op *free = after.create(OpKind::Barrier, {}, Type{}, /*hasResult=*/false);
  free->srcText = "the stage buffers are free again";
  free->line = loop_.line;

  loop_.pipelined = false;
  loop_.producerCarried.clear();
  // What only the loads' `other` was computed from (the copies fill in zeros themselves).
  recountUses(k_);
  for (auto it = copies_.rbegin(); it != copies_.rend(); ++it)
    eraseIfDead(k_, *it);
  for (auto it = recomputed_.rbegin(); it != recomputed_.rend(); ++it)
    eraseIfDead(k_, *it);
}

void lowerIn(Kernel &k, Region &r) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    Op *op = r.ops[i].get();
    for (auto &sub : op->regions)
      lowerIn(k, *sub);
    if (op->kind == OpKind::For && op->pipelined)
      Lowering(k, *op).run();
  }
}

} // namespace

void runLowerPipeline(Kernel &k) { lowerIn(k, k.body); } // each lowering leaves counts right

} // namespace tilec
