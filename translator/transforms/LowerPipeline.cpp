#include "transforms/LowerPipeline.h"

#include "ir/Rewriter.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

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
  Value *iterationIndex(Builder &b, Value **perStep);
  /// A new value for a producer-carried variable like `v` (a pointer tile that carryDistances
  /// left as it is keeps its layout and facts).
  Value *carriedLike(const Value *v, const std::string &name) {
    Value *out = k_.newValue(v->type, name);
    out->layout = v->layout;
    out->info = v->info;
    return out;
  }
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

/// The values `r` and the regions nested in it define (their arguments too).
void definedIn(const Region &r, std::set<const Value *> &out) {
  out.insert(r.args.begin(), r.args.end());
  for (auto &op : r.ops) {
    if (op->result)
      out.insert(op->result);
    out.insert(op->results.begin(), op->results.end());
    for (auto &sub : op->regions)
      definedIn(*sub, out);
  }
}

/// Whether `v` has one value in every iteration of the loop whose body defines `inside`:
/// defined outside it, or constants, casts and arithmetic of such values.
bool loopInvariant(const Value *v, const std::set<const Value *> &inside, int depth = 0) {
  if (!inside.count(v))
    return true;
  const Op *d = v->def;
  if (depth > 8 || !d || !v->type.isScalar())
    return false;
  if (d->kind == OpKind::Constant)
    return true;
  if (d->kind != OpKind::Binary && d->kind != OpKind::Cast)
    return false;
  for (const Value *o : d->operands)
    if (!loopInvariant(o, inside, depth + 1))
      return false;
  return true;
}

/// A copy of loop-invariant `v` computed at `b` (what is defined outside the loop is read
/// where it is).
Value *recomputeAt(Builder &b, Value *v, const std::set<const Value *> &inside) {
  if (!inside.count(v))
    return v;
  std::vector<Value *> ins;
  for (Value *o : v->def->operands)
    ins.push_back(recomputeAt(b, o, inside));
  Op *c = b.clone(*v->def, ins, v->type);
  c->stage = Op::Stage::Producer;
  return c->result;
}

/// One value, or constants of one value.
bool sameValue(const Value *a, const Value *b) {
  return a == b || (a->def && b->def && a->def->kind == OpKind::Constant &&
                    b->def->kind == OpKind::Constant && a->def->attrs[0].sameAs(b->def->attrs[0]));
}

/// The number of the iteration the induction variable is at, `(iv - lo) / step` (`iv` when
/// the loop counts from 0 by 1), times `perStep` when `perStep` is not null: then with the
/// division left out (`iv - lo`) when `perStep` is `step`, and `(iv - lo) * rest` when
/// `perStep` is `step * rest` (`k0 += BK` with pointers advanced by `BK * N`).
Value *Lowering::iterationIndex(Builder &b, Value **perStep) {
  Value *iv = body_.args[0], *lo = loop_.operands[0], *step = loop_.operands[2];
  auto isConst = [](const Value *v, int64_t c) {
    return v->def && v->def->kind == OpKind::Constant && v->def->attrs[0].isConst(c);
  };
  Value *i = iv;
  if (!isConst(lo, 0)) {
    Op *sub = b.create(OpKind::Binary, {i, lo}, iv->type);
    sub->opcode = "-";
    sub->stage = Op::Stage::Producer;
    i = sub->result;
  }
  if (perStep && *perStep) {
    Value *by = *perStep;
    const Op *mul = by->def && by->def->kind == OpKind::Binary && by->def->opcode == "*" ? by->def : nullptr;
    if (sameValue(by, step)) {
      *perStep = nullptr;
      return i;
    }
    for (int j = 0; mul && j < 2; ++j)
      if (sameValue(mul->operands[size_t(j)], step)) {
        *perStep = mul->operands[size_t(1 - j)];
        return i;
      }
  }
  if (!isConst(step, 1)) {
    Op *div = b.create(OpKind::Binary, {i, step}, iv->type);
    div->opcode = "/";
    div->stage = Op::Stage::Producer;
    i = div->result;
  }
  return i;
}

/// Producer-carried pointer tiles advanced by a scalar (`p = p + s`), started from an addptr
/// and not read after the loop, are recomputed from the distance advanced: `p` is then
/// `init + distance`, with `init` recomputed in the loop. When `s` is the same in every
/// iteration the distance is `i * s` at the i-th iteration, and the loop no longer carries
/// `p`: the pointers are then what a kernel computing its offsets from the loop index has
/// (tutorial 03's `a_ptrs += BLOCK_K` reads as `a + ... + k * BLOCK_K`), which the copy
/// engine's boxes are matched against. Otherwise the loop carries the distance.
void Lowering::carryDistances() {
  std::set<const Value *> inside;
  definedIn(body_, inside);
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
    Value *by = advance->operands[1];
    bool indexed = loopInvariant(by, inside) && by->type.elem.isInteger();
    Op *firstUser = nullptr; // the pointers are recomputed right before it
    for (auto &op : body_.ops)
      if (!firstUser && std::count(op->operands.begin(), op->operands.end(), arg))
        firstUser = op.get();
    Builder top(k_, firstUser);
    auto widen = [&](Builder &b, Value *v) {
      if (v->type.elem == i64.elem)
        return v;
      Op *w = b.create(OpKind::Cast, {v}, i64);
      w->stage = Op::Stage::Producer;
      return w->result;
    };
    Value *distance;
    if (indexed) {
      Value *perStep = by;
      Value *i = widen(top, iterationIndex(top, &perStep));
      if (perStep) {
        Op *mul = top.create(OpKind::Binary, {i, widen(top, recomputeAt(top, perStep, inside))}, i64);
        mul->opcode = "*";
        mul->stage = Op::Stage::Producer;
        i = mul->result;
      }
      distance = i;
      if (distance->name.empty() && distance->def)
        distance->name = name;
    } else {
      distance = k_.newValue(i64, name);
    }
    Op *base = top.clone(*init->def, init->def->operands, init->type);
    Op *now = top.create(OpKind::AddPtr, {base->result, distance}, arg->type);
    now->result->layout = arg->layout;
    now->result->info = arg->info;
    now->result->name = arg->name;
    base->stage = now->stage = Op::Stage::Producer;
    replaceAllUses(k_, arg, now->result);

    if (indexed) { // the loop stops carrying p
      next->uses--;
      eraseIfDead(k_, next);
      init->uses--;
      eraseIfDead(k_, init);
      loop_.operands.erase(loop_.operands.begin() + long(3 + j));
      body_.args.erase(body_.args.begin() + long(j + 1));
      body_.yields.erase(body_.yields.begin() + long(j));
      loop_.results.erase(loop_.results.begin() + long(j));
      loop_.carriedNames.erase(loop_.carriedNames.begin() + long(j));
      loop_.producerCarried.erase(loop_.producerCarried.begin() + long(j));
      --j;
      continue;
    }

    Builder b(k_, advance, /*after=*/true);
    Op *add = b.create(OpKind::Binary, {distance, widen(b, by)}, i64);
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
    after.push_back(carriedLike(carriedNow[i], name));
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
    carriedNow.push_back(carriedLike(body_.args[j + 1], loop_.carriedNames[j]));
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
    prologue->results.push_back(carriedLike(body_.args[j + 1], loop_.carriedNames[j]));

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
