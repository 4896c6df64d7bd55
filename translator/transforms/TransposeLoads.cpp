#include "transforms/TransposeLoads.h"

#include "analysis/AxisInfo.h"
#include "ir/Rewriter.h"

#include <algorithm>
#include <map>

namespace tilec {

namespace {

Type transposed(const Type &t) {
  Type r = t;
  std::swap(r.shape[0], r.shape[1]);
  return r;
}

bool isProperRank2(const Type &t) {
  return t.shape.size() == 2 && !t.shape[0].isConst(1) && !t.shape[1].isConst(1);
}

/// Builds transposed copies of rank-2 values, each right after the original's definition
/// (so that loop-invariant parts stay outside loops). Null when a value cannot be rebuilt:
/// it is not computed by broadcasts, expand_dims and elementwise ops from rank-1 tiles and
/// scalars.
class Transposer {
public:
  explicit Transposer(Kernel &k) : k_(k) {}
  Value *get(Value *v);

private:
  Kernel &k_;
  std::map<const Value *, Value *> memo_;
  Value *build(Value *v);
};

Value *Transposer::get(Value *v) {
  if (v->type.isScalar())
    return v;
  auto it = memo_.find(v);
  if (it != memo_.end())
    return it->second;
  Value *t = build(v);
  memo_[v] = t;
  return t;
}

Value *Transposer::build(Value *v) {
  Op *def = v->def;
  if (!def || v->type.shape.size() != 2)
    return nullptr;
  switch (def->kind) {
  case OpKind::Trans:
    return def->attrs.empty() ? def->operands[0] : nullptr;
  case OpKind::ExpandDims: {
    // [M] -> [M, 1] becomes [M] -> [1, M], and the other way round.
    Op *c = Builder(k_, def, /*after=*/true).clone(*def, def->operands, transposed(v->type));
    c->attrs[0] = SymExpr(1 - def->attrs[0].value());
    return c->result;
  }
  case OpKind::Splat:
    return Builder(k_, def, true).clone(*def, def->operands, transposed(v->type))->result;
  case OpKind::Broadcast:
  case OpKind::Binary:
  case OpKind::Unary:
  case OpKind::Ternary:
  case OpKind::Select:
  case OpKind::Cast:
  case OpKind::Bitcast:
  case OpKind::AddPtr: {
    std::vector<Value *> operands;
    for (Value *o : def->operands) {
      if (o->type.isTile() && o->type.shape.size() != 2)
        return nullptr;
      Value *t = get(o);
      if (!t)
        return nullptr;
      operands.push_back(t);
    }
    return Builder(k_, def, true).clone(*def, operands, transposed(v->type))->result;
  }
  default:
    return nullptr; // loads, loop-carried values, reductions, hints (they speak of the last axis)
  }
}

/// `runs` with every "stride == 1 ?" select (a template parameter that might be 1) taken as
/// false: the contiguity the load has for every value of its template parameters.
SymExpr assuredRuns(const SymExpr &runs) {
  if (runs.fn() == "?:")
    return runs.cond().size() > 5 && runs.cond().compare(runs.cond().size() - 5, 5, " == 1") == 0
               ? assuredRuns(*runs.rhs())
               : runs;
  if (runs.fn() == "tilec::cmin")
    return symMin(assuredRuns(*runs.lhs()), assuredRuns(*runs.rhs()));
  if (runs.fn() == "tilec::gcd")
    return symGcd(assuredRuns(*runs.lhs()), assuredRuns(*runs.rhs()));
  return runs;
}

/// Only tl::dot reads `v`, as its a or b operand.
bool onlyDotOperand(Kernel &k, const Value *v) {
  int reads = 0;
  bool ok = true;
  walkOps(k, [&](Op &op) {
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (op.operands[i] == v) {
        ++reads;
        ok = ok && op.kind == OpKind::Dot && i < 2;
      }
  });
  return ok && reads == v->uses && reads > 0;
}

/// The loads worth transposing: those whose transposed pointers, mask and `other` can be
/// built and whose transposed pointers axis-info finds contiguous. Decided on a trial copy
/// that is removed again (with its values, so that the kernel's value ids do not depend on
/// what was tried).
std::vector<Op *> worthTransposing(Kernel &k, const std::vector<Op *> &loads) {
  size_t valuesBefore = k.values.size();
  Transposer tr(k);
  std::vector<std::pair<Op *, Value *>> tried;
  std::vector<Value *> copies;
  for (Op *load : loads) {
    Value *ptrs = tr.get(load->operands[0]);
    bool complete = ptrs != nullptr;
    for (size_t i = 0; i < load->operands.size(); ++i)
      if (Value *t = tr.get(load->operands[i]); t && t != load->operands[i])
        copies.push_back(t);
      else if (!t)
        complete = false;
    if (complete)
      tried.push_back({load, ptrs});
  }
  runAxisInfo(k);
  std::vector<Op *> chosen;
  for (auto [load, ptrs] : tried)
    if (!assuredRuns(ptrs->info.contiguity).isConst(1))
      chosen.push_back(load);
  for (Value *v : copies)
    eraseIfDead(k, v);
  k.values.resize(valuesBefore);
  runAxisInfo(k);
  return chosen;
}

} // namespace

void runTransposeLoads(Kernel &k) {
  std::vector<Op *> loads;
  walkOps(k, [&](Op &op) {
    if (op.kind == OpKind::Load && op.result && isProperRank2(op.result->type) &&
        assuredRuns(op.operands[0]->info.contiguity).isConst(1) && onlyDotOperand(k, op.result))
      loads.push_back(&op);
  });
  if (loads.empty())
    return;
  std::vector<Op *> chosen = worthTransposing(k, loads);
  Transposer tr(k);
  for (Op *load : chosen) {
    std::vector<Value *> operands;
    for (Value *o : load->operands)
      operands.push_back(tr.get(o));
    Builder b(k, load, /*after=*/true);
    Op *rowLoad = b.clone(*load, operands, transposed(load->result->type));
    Op *trans = b.create(OpKind::Trans, {rowLoad->result}, load->result->type);
    trans->srcText = load->srcText;
    trans->result->name = load->result->name;
    replaceAllUses(k, load->result, trans->result);
    std::vector<Value *> inputs = load->operands;
    eraseOp(k, load);
    for (Value *v : inputs)
      eraseIfDead(k, v);
  }
  if (!chosen.empty())
    runAxisInfo(k);
}

} // namespace tilec
