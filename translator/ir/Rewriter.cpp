#include "ir/Rewriter.h"

namespace tilec {

void walkOps(Region &r, const std::function<void(Op &)> &fn) {
  for (auto &op : r.ops) {
    fn(*op);
    for (auto &sub : op->regions)
      walkOps(*sub, fn);
  }
}

static bool locateIn(Region &r, const Op *op, OpPosition &pos) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    if (r.ops[i].get() == op) {
      pos = {&r, i};
      return true;
    }
    for (auto &sub : r.ops[i]->regions)
      if (locateIn(*sub, op, pos))
        return true;
  }
  return false;
}

OpPosition locate(Kernel &k, const Op *op) {
  OpPosition pos;
  locateIn(k.body, op, pos);
  return pos;
}

bool isZeroConstant(const Value *v) {
  while (v->def && (v->def->kind == OpKind::Cast || v->def->kind == OpKind::Splat))
    v = v->def->operands[0];
  if (!v->def || v->def->kind != OpKind::Constant || v->def->attrs.empty())
    return false;
  const SymExpr &c = v->def->attrs[0];
  if (c.isConst(0))
    return true;
  // Floating zeros are literals as the frontend spells them (floatLiteral); `-0.0f` is a
  // negation, not a literal.
  return c.str() == "0.0f" || c.str() == "0.0";
}

bool isRegisterArithmetic(OpKind kind) {
  switch (kind) {
  case OpKind::Constant:
  case OpKind::Arange:
  case OpKind::Splat:
  case OpKind::Broadcast:
  case OpKind::Binary:
  case OpKind::Unary:
  case OpKind::Ternary:
  case OpKind::Select:
  case OpKind::Cast:
  case OpKind::Bitcast:
  case OpKind::AddPtr:
  case OpKind::Hint:
  case OpKind::ExpandDims:
    return true;
  default:
    return false;
  }
}

bool isSideEffectFree(OpKind kind) {
  return isRegisterArithmetic(kind) || kind == OpKind::Param || kind == OpKind::ProgramId ||
         kind == OpKind::NumPrograms || kind == OpKind::Programs || kind == OpKind::ConvertLayout || kind == OpKind::Trans ||
         kind == OpKind::Reshape || kind == OpKind::SmemRing || kind == OpKind::StageView ||
         kind == OpKind::SmemBuffer || kind == OpKind::Flip || kind == OpKind::Sort || kind == OpKind::Gather ||
         kind == OpKind::Histogram;
}

void moveBefore(Kernel &k, Op *op, Op *anchor) {
  OpPosition from = locate(k, op), to = locate(k, anchor);
  if (!from.region || from.region != to.region || from.index == to.index)
    return;
  std::unique_ptr<Op> moved = std::move(from.region->ops[from.index]);
  from.region->ops.erase(from.region->ops.begin() + long(from.index));
  size_t at = to.index > from.index ? to.index - 1 : to.index;
  from.region->ops.insert(from.region->ops.begin() + long(at), std::move(moved));
}

void addOperand(Op *op, Value *v) {
  op->operands.push_back(v);
  ++v->uses;
}

void setOperand(Op *op, size_t i, Value *v) {
  --op->operands[i]->uses;
  op->operands[i] = v;
  ++v->uses;
}

Builder::Builder(Kernel &k, Op *anchor, bool after) : k_(k), anchor_(anchor) {
  pos_ = locate(k, anchor);
  next_ = pos_.index + (after ? 1 : 0);
}

Builder::Builder(Kernel &k, Region &r, const Op &locFrom) : k_(k), anchor_(&locFrom) {
  pos_ = {&r, r.ops.size()};
  next_ = pos_.index;
}

Op *Builder::create(OpKind kind, std::vector<Value *> operands, Type type, bool hasResult) {
  auto op = std::make_unique<Op>();
  op->kind = kind;
  op->operands = std::move(operands);
  for (Value *v : op->operands)
    v->uses++;
  op->loc = anchor_->loc;
  op->line = anchor_->line;
  if (hasResult) {
    op->result = k_.newValue(std::move(type));
    op->result->def = op.get();
  }
  Op *raw = op.get();
  if (pos_.region) {
    pos_.region->ops.insert(pos_.region->ops.begin() + long(next_), std::move(op));
    ++next_;
  }
  return raw;
}

Op *Builder::clone(const Op &op, std::vector<Value *> operands, Type type) {
  Op *c = create(op.kind, std::move(operands), std::move(type), op.result != nullptr);
  c->opcode = op.opcode;
  c->attrs = op.attrs;
  c->axis = op.axis;
  c->zeroIfGridOne = op.zeroIfGridOne;
  c->cache = op.cache;
  c->isVolatile = op.isVolatile;
  c->quadRuns = op.quadRuns;
  c->asmConstraints = op.asmConstraints;
  c->asmImpure = op.asmImpure;
  c->srcText = op.srcText;
  c->loc = op.loc;
  c->line = op.line;
  if (c->result && op.result) {
    c->result->info = op.result->info;
    c->result->layout = op.result->layout;
  }
  return c;
}

static void replaceIn(Region &r, Value *from, Value *to, const Op *except) {
  for (auto &op : r.ops) {
    if (op.get() != except)
      for (Value *&v : op->operands)
        if (v == from) {
          v = to;
          from->uses--;
          to->uses++;
        }
    for (auto &sub : op->regions)
      replaceIn(*sub, from, to, except);
  }
  for (Value *&v : r.yields)
    if (v == from) {
      v = to;
      from->uses--;
      to->uses++;
    }
}

void replaceAllUses(Kernel &k, Value *from, Value *to, const Op *except) {
  if (from != to)
    replaceIn(k.body, from, to, except);
}

void eraseOp(Kernel &k, Op *op) {
  OpPosition pos = locate(k, op);
  if (!pos.region)
    return;
  for (Value *v : op->operands)
    v->uses--;
  if (op->result)
    op->result->def = nullptr;
  pos.region->ops.erase(pos.region->ops.begin() + long(pos.index));
}

void eraseIfDead(Kernel &k, Value *v) {
  Op *def = v->def;
  if (!def || v->uses != 0 || def->kind == OpKind::Param || !isSideEffectFree(def->kind))
    return;
  std::vector<Value *> operands = def->operands;
  eraseOp(k, def);
  for (Value *o : operands)
    eraseIfDead(k, o);
}

std::vector<Value *> liveValues(Kernel &k) {
  std::vector<bool> live(k.values.size(), false);
  auto mark = [&](const Value *v) { live[size_t(v->id)] = true; };
  std::function<void(Region &)> visit = [&](Region &r) {
    for (Value *a : r.args)
      mark(a);
    for (auto &op : r.ops) {
      if (op->result)
        mark(op->result);
      for (Value *v : op->results)
        mark(v);
      for (auto &sub : op->regions)
        visit(*sub);
    }
  };
  visit(k.body);
  std::vector<Value *> out;
  for (auto &v : k.values)
    if (live[size_t(v->id)])
      out.push_back(v.get());
  return out;
}

static void countIn(Region &r) {
  for (auto &op : r.ops) {
    for (Value *v : op->operands)
      v->uses++;
    for (auto &sub : op->regions)
      countIn(*sub);
  }
  for (Value *v : r.yields)
    v->uses++;
}

void recountUses(Kernel &k) {
  for (auto &v : k.values)
    v->uses = 0;
  countIn(k.body);
}

bool dotStagesNothing(const Op &op) {
  return op.kind == OpKind::Dot && op.operands[1]->type.shared &&
         (op.operands[0]->type.shared || op.dotRegistersA);
}

std::map<const Value *, int> dotOperandReads(Kernel &k) {
  std::map<const Value *, int> reads;
  walkOps(k, [&](Op &op) {
    if (op.kind == OpKind::Dot)
      for (size_t i = 0; i < 2; ++i)
        reads[op.operands[i]]++;
  });
  return reads;
}

static Value *cloneValue(Kernel &k, const Value *v, std::map<const Value *, Value *> &map) {
  Value *c = k.newValue(v->type, v->name);
  c->info = v->info;
  c->layout = v->layout;
  map[v] = c;
  return c;
}

void cloneRegion(Kernel &k, const Region &src, Region &dst, std::map<const Value *, Value *> &map) {
  std::vector<const Op *> ops;
  for (const auto &op : src.ops)
    ops.push_back(op.get());
  cloneOps(k, ops, dst, map);
  for (Value *y : src.yields) {
    auto it = map.find(y);
    Value *m = it == map.end() ? y : it->second;
    ++m->uses;
    dst.yields.push_back(m);
  }
}

Op *versionLoop(Kernel &k, Op &loop, const std::string &cond, const std::string &says,
                unsigned line, Op *&copy) {
  std::vector<size_t> carried; // the loop's results read after it
  for (size_t i = 0; i < loop.results.size(); ++i)
    if (loop.results[i]->uses > 0)
      carried.push_back(i);
  std::vector<Value *> inits;
  for (size_t j : carried)
    inits.push_back(loop.operands[3 + j]);
  Op *branch = Builder(k, &loop).create(OpKind::If, inits, Type{}, /*hasResult=*/false);
  branch->constexprCond = cond;
  branch->srcText = says;
  branch->line = line;
  for (size_t j : carried) {
    branch->carriedNames.push_back(loop.carriedNames[j]);
    branch->results.push_back(k.newValue(loop.results[j]->type, loop.results[j]->name));
  }
  for (size_t i = 0; i < carried.size(); ++i)
    replaceAllUses(k, loop.results[carried[i]], branch->results[i]);

  auto then = std::make_unique<Region>();
  std::map<const Value *, Value *> map;
  cloneOps(k, {&loop}, *then, map);
  copy = then->ops.back().get();
  auto otherwise = std::make_unique<Region>();
  OpPosition pos = locate(k, &loop);
  std::unique_ptr<Op> original = std::move(pos.region->ops[pos.index]);
  pos.region->ops.erase(pos.region->ops.begin() + long(pos.index));
  for (size_t j : carried) {
    then->yields.push_back(copy->results[j]);
    otherwise->yields.push_back(original->results[j]);
  }
  otherwise->ops.push_back(std::move(original));
  branch->regions.push_back(std::move(then));
  branch->regions.push_back(std::move(otherwise));
  recountUses(k);
  return branch;
}

void cloneOps(Kernel &k, const std::vector<const Op *> &ops, Region &dst,
              std::map<const Value *, Value *> &map) {
  auto mapped = [&](Value *v) {
    auto it = map.find(v);
    return it == map.end() ? v : it->second;
  };
  for (const Op *op : ops) {
    std::vector<Value *> operands;
    for (Value *v : op->operands)
      operands.push_back(mapped(v));
    // Builder::clone copies what every op has; control flow and schedule fields follow.
    Op *c = Builder(k, dst, *op).clone(*op, operands, op->result ? op->result->type : Type{});
    if (op->result) {
      c->result->name = op->result->name;
      map[op->result] = c->result;
    }
    for (const Value *v : op->results)
      c->results.push_back(cloneValue(k, v, map));
    c->carriedNames = op->carriedNames;
    c->unrolled = op->unrolled;
    c->rolled = op->rolled;
    c->loopStages = op->loopStages;
    c->unrollFactor = op->unrollFactor;
    c->noWarpSpecialize = op->noWarpSpecialize;
    c->constexprCond = op->constexprCond;
    c->accessWidth = op->accessWidth;
    c->pipelined = op->pipelined;
    c->producerCarried = op->producerCarried;
    c->stage = op->stage;
    c->asyncCopy = op->asyncCopy;
    c->dotTransposed[0] = op->dotTransposed[0];
    c->dotTransposed[1] = op->dotTransposed[1];
    c->dotRegistersA = op->dotRegistersA;
    c->dotNoWait = op->dotNoWait;
    c->dotZeroAcc = op->dotZeroAcc;
    for (const auto &sub : op->regions) {
      auto r = std::make_unique<Region>();
      for (const Value *a : sub->args)
        r->args.push_back(cloneValue(k, a, map));
      cloneRegion(k, *sub, *r, map);
      c->regions.push_back(std::move(r));
    }
  }
}

namespace {

void collectDotLoops(Region &r, const std::function<bool(const Op &, size_t)> &enter,
                     std::vector<Op *> &out) {
  for (auto &op : r.ops) {
    bool dot = false;
    if (op->kind == OpKind::For)
      walkOps(*op->regions[0], [&](Op &x) { dot = dot || x.kind == OpKind::Dot; });
    if (dot) {
      out.push_back(op.get());
      continue;
    }
    for (size_t i = 0; i < op->regions.size(); ++i)
      if (!enter || enter(*op, i))
        collectDotLoops(*op->regions[i], enter, out);
  }
}

} // namespace

bool holdsDot(const Region &r) {
  bool dot = false;
  walkRegion(r, [&](const Op &op) { dot = dot || op.kind == OpKind::Dot; });
  return dot;
}

std::vector<Op *> outermostDotLoops(Region &r,
                                    const std::function<bool(const Op &, size_t)> &enter) {
  std::vector<Op *> out;
  collectDotLoops(r, enter, out);
  return out;
}

} // namespace tilec
