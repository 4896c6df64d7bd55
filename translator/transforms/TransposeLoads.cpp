#include "transforms/TransposeLoads.h"

#include "analysis/AxisInfo.h"
#include "ir/Rewriter.h"

#include <algorithm>
#include <map>
#include <optional>

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

/// A pointer tile a for loop carries and advances by a scalar each iteration (`w_ptrs +=
/// BLOCK_K`), read by nothing else in the loop but `reader`, and not used after it.
struct AdvancingPointer {
  Op *loop = nullptr;
  size_t index = 0; // which carried variable
  Op *step = nullptr;
};

/// The carried variables of the kernel's for loops (not unrolled), by region argument.
using CarriedIndex = std::map<const Value *, AdvancingPointer>;

CarriedIndex carriedVariables(Kernel &k) {
  CarriedIndex out;
  walkOps(k, [&](Op &op) {
    if (op.kind != OpKind::For || op.unrolled)
      return;
    const Region &body = *op.regions[0];
    for (size_t j = 1; j < body.args.size(); ++j)
      out[body.args[j]] = {&op, j - 1, body.yields[j - 1]->def};
  });
  return out;
}

std::optional<AdvancingPointer> advancingPointer(const CarriedIndex &carried, Value *arg,
                                                 const Op *reader) {
  auto it = carried.find(arg);
  if (it == carried.end())
    return std::nullopt;
  const AdvancingPointer &a = it->second;
  if (!a.step || a.step->kind != OpKind::AddPtr || a.step->operands[0] != arg ||
      !a.step->operands[1]->type.isScalar() || a.step->result->uses != 1 ||
      a.loop->results[a.index]->uses != 0 || arg->uses != 2)
    return std::nullopt;
  bool readerReads = false;
  for (const Value *o : reader->operands)
    readerReads |= o == arg;
  if (!readerReads)
    return std::nullopt;
  return a;
}

/// Builds transposed copies of rank-2 values, each right after the original's definition
/// (so that loop-invariant parts stay outside loops). Null when a value cannot be rebuilt:
/// it is not computed by broadcasts, expand_dims and elementwise ops from rank-1 tiles and
/// scalars, or is not a pointer tile a loop advances (see AdvancingPointer). A trial
/// Transposer leaves loops alone: an advancing pointer stands for its initial value, which has
/// the same facts (axis-info's carriedInfo); the real one carries a transposed copy alongside.
class Transposer {
public:
  Transposer(Kernel &k, bool trial) : k_(k), trial_(trial), carried_(carriedVariables(k)) {}
  Value *get(Value *v);
  /// The load whose operands get() is asked for next (an advancing pointer must be read by it
  /// alone).
  void setReader(const Op *load) { reader_ = load; }
  /// The carried variables whose transposed copies were added: (loop, index of the original).
  const std::vector<std::pair<Op *, size_t>> &replacedCarried() const { return replaced_; }

private:
  Kernel &k_;
  bool trial_;
  CarriedIndex carried_; // the loops' carried variables when the Transposer was made
  std::map<const Value *, Value *> memo_;
  std::vector<std::pair<Op *, size_t>> replaced_;
  const Op *reader_ = nullptr; // the load being transposed

  Value *build(Value *v);
  Value *carryTransposed(const AdvancingPointer &a, Value *initT);
};

/// Adds a carried variable to `a.loop` holding the transposed pointers (`initT` first,
/// advanced by the same scalar) and returns its region argument.
Value *Transposer::carryTransposed(const AdvancingPointer &a, Value *initT) {
  Op &loop = *a.loop;
  Region &body = *loop.regions[0];
  Value *arg = body.args[a.index + 1];
  Value *argT = k_.newValue(initT->type, arg->name);
  body.args.push_back(argT);
  loop.operands.push_back(initT);
  initT->uses++;
  Op *stepT =
      Builder(k_, a.step, /*after=*/true).clone(*a.step, {argT, a.step->operands[1]}, initT->type);
  body.yields.push_back(stepT->result);
  stepT->result->uses++;
  Value *result = k_.newValue(initT->type, loop.results[a.index]->name);
  result->def = &loop;
  loop.results.push_back(result);
  loop.carriedNames.push_back(loop.carriedNames[a.index]);
  replaced_.push_back({&loop, a.index});
  return argT;
}

/// Removes carried variable `j` of `loop` (read by nothing but its own advance).
void dropCarried(Kernel &k, Op &loop, size_t j) {
  Region &body = *loop.regions[0];
  Op *step = body.yields[j]->def;
  loop.operands[3 + j]->uses--;
  loop.operands.erase(loop.operands.begin() + long(3 + j));
  body.yields[j]->uses--;
  body.yields.erase(body.yields.begin() + long(j));
  eraseOp(k, step);
  body.args.erase(body.args.begin() + long(j + 1));
  loop.results.erase(loop.results.begin() + long(j));
  loop.carriedNames.erase(loop.carriedNames.begin() + long(j));
}

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
  if (!def && v->type.pointer && v->type.shape.size() == 2 && reader_) {
    std::optional<AdvancingPointer> a = advancingPointer(carried_, v, reader_);
    if (!a)
      return nullptr;
    Value *initT = get(a->loop->operands[3 + a->index]);
    return !initT || trial_ ? initT : carryTransposed(*a, initT);
  }
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
  case OpKind::Hint:
    return nullptr; // hints speak of the last axis
  default: {
    // Elementwise ops and broadcasts: the same op over transposed operands. Anything else
    // (loads, reductions, relayouts) stops the rewrite.
    if (!isRegisterArithmetic(def->kind))
      return nullptr;
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
  }
}

/// A trans whose result only tl::dot reads, as its a or b (the dots then read its operand
/// transposed: fuse-dot-transpose).
bool transForDots(const Op &op, const std::map<const Value *, int> &reads) {
  if (op.kind != OpKind::Trans || !op.attrs.empty() || !op.result)
    return false;
  auto it = reads.find(op.result);
  return it != reads.end() && it->second == op.result->uses;
}

/// How many times each value is read as a tl::dot's a or b operand, directly or through a
/// trans that only tl::dot reads (a value read that often in all, yields included, is read by
/// nothing else). An attention backward reads Q^T both ways: Q K^T and dS^T Q.
std::map<const Value *, int> dotReadsThroughTrans(Kernel &k) {
  std::map<const Value *, int> reads = dotOperandReads(k);
  walkOps(k, [&](Op &op) {
    if (transForDots(op, reads))
      reads[op.operands[0]]++;
  });
  return reads;
}

/// The loads worth transposing: those whose transposed pointers, mask and `other` can be
/// built and whose transposed pointers axis-info finds contiguous. Decided on a trial copy
/// that is removed again (with its values, so that the kernel's value ids do not depend on
/// what was tried).
std::vector<Op *> worthTransposing(Kernel &k, const std::vector<Op *> &loads) {
  size_t valuesBefore = k.values.size();
  Transposer tr(k, /*trial=*/true);
  std::vector<std::pair<Op *, Value *>> tried;
  std::vector<Value *> copies;
  for (Op *load : loads) {
    tr.setReader(load);
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
  std::map<const Value *, int> dotReads = dotReadsThroughTrans(k);
  std::vector<Op *> loads;
  walkOps(k, [&](Op &op) {
    if (op.kind != OpKind::Load || !op.result || !isProperRank2(op.result->type) ||
        !assuredRuns(op.operands[0]->info.contiguity).isConst(1))
      return;
    auto reads = dotReads.find(op.result);
    if (reads != dotReads.end() && reads->second == op.result->uses)
      loads.push_back(&op); // only tl::dot reads it, as its a or b
  });
  if (loads.empty())
    return;
  std::vector<Op *> chosen = worthTransposing(k, loads);
  Transposer tr(k, /*trial=*/false);
  for (Op *load : chosen) {
    tr.setReader(load);
    std::vector<Value *> operands;
    for (Value *o : load->operands)
      operands.push_back(tr.get(o));
    Builder b(k, load, /*after=*/true);
    Op *rowLoad = b.clone(*load, operands, transposed(load->result->type));
    // The row-major tile is named after the user's (`k_t` -> `k_t_rows`): its stage buffers
    // and its copies in the generated CUDA then say what they hold.
    if (!load->result->name.empty())
      rowLoad->result->name = load->result->name + "_rows";
    // A trans of the tile is the row-major load itself (trans of trans is the tile).
    std::vector<Op *> transUsers;
    walkOps(k, [&](Op &op) {
      if (op.kind == OpKind::Trans && op.attrs.empty() && op.operands[0] == load->result)
        transUsers.push_back(&op);
    });
    for (Op *t : transUsers) {
      replaceAllUses(k, t->result, rowLoad->result);
      eraseOp(k, t);
    }
    if (load->result->uses > 0) {
      Op *trans = b.create(OpKind::Trans, {rowLoad->result}, load->result->type);
      trans->srcText = load->srcText;
      trans->result->name = load->result->name;
      replaceAllUses(k, load->result, trans->result);
    }
    std::vector<Value *> inputs = load->operands;
    eraseOp(k, load);
    for (Value *v : inputs)
      eraseIfDead(k, v);
  }
  // The original pointers of the loads that read carried ones are read by nothing now but
  // their own advance: the loops stop carrying them (highest index first).
  std::vector<std::pair<Op *, size_t>> dropped = tr.replacedCarried();
  std::sort(dropped.begin(), dropped.end(),
            [](const auto &a, const auto &b) { return a.second > b.second; });
  for (auto [loop, j] : dropped) {
    Value *init = loop->operands[3 + j];
    dropCarried(k, *loop, j);
    eraseIfDead(k, init);
  }
  if (!chosen.empty())
    runAxisInfo(k);
}

} // namespace tilec
