#include "transforms/PipelineLoads.h"

#include "ir/Rewriter.h"

#include <map>
#include <set>

namespace tilec {

namespace {

/// Every op in `r` and its nested regions that reads `v`.
void usersIn(const Region &r, const Value *v, std::vector<const Op *> &out) {
  walkRegion(r, [&](const Op &op) {
    for (const Value *o : op.operands)
      if (o == v)
        out.push_back(&op);
  });
}

class LoopPipeliner {
public:
  explicit LoopPipeliner(Op &loop) : loop_(loop), body_(*loop.regions[0]) {}
  void run();

private:
  Op &loop_;
  Region &body_;
  std::set<const Op *> topLevel_, producer_;
  std::set<size_t> carried_; // indices of the producer's carried variables

  bool stageable(const Op &load, std::vector<const Op *> &users) const;
  bool qualifies(const Op &load) const;
  bool qualifiesAsSideLoad(const Op &load) const;
  int carriedIndex(const Value *v) const {
    for (size_t j = 1; j < body_.args.size(); ++j)
      if (body_.args[j] == v)
        return int(j - 1);
    return -1;
  }
  bool collectProducer(std::vector<const Op *> work);
  bool separable(const std::vector<Op *> &loads);
  bool dependsOnCarried(const Op *op, std::map<const Op *, bool> &memo) const;
};

/// What every staged load needs: it reads a tile where the program may read it stages ahead,
/// fills masked-off elements with zero (all cp.async fills in), and only ops of the body read
/// it (not a yield, nor code after the loop). Its readers go to `users`.
bool LoopPipeliner::stageable(const Op &load, std::vector<const Op *> &users) const {
  if (load.kind != OpKind::Load || !load.result)
    return false;
  if (load.isVolatile || load.cache == "cv")
    return false; // read where the program reads it, not stages ahead
  if (load.operands.size() > 2 && !isZeroConstant(load.operands[2]))
    return false; // cp.async fills masked-off elements with zeros only
  if (load.operands.size() > 1 && !load.operands[1]->type.isTile())
    return false;
  usersIn(body_, load.result, users);
  return !users.empty() && load.result->uses == int(users.size());
}

bool LoopPipeliner::qualifies(const Op &load) const {
  std::vector<const Op *> users;
  if (!stageable(load, users) || load.result->type.shape.size() != 2)
    return false;
  for (const Op *u : users)
    if (u->kind != OpKind::Dot || u->operands[2] == load.result)
      return false;
  return true;
}

/// A load staged beside the tl::dot operands: a rank-1 tile of 4- or 8-byte elements (so
/// that every element can be its own cp.async), read by anything in the body. Staged, its
/// latency hides behind the dots' as theirs does, and its users read it in the layout they
/// want (stage_read).
bool LoopPipeliner::qualifiesAsSideLoad(const Op &load) const {
  std::vector<const Op *> users;
  if (!stageable(load, users) || load.result->type.shape.size() != 1)
    return false;
  std::string bytes = load.result->type.elem.sizeofExpr();
  return bytes == "4" || bytes == "8";
}

/// The producer: the loads, what they are computed from inside the loop, and the carried
/// variables (with their updates) among those. False if that reaches an op with effects or
/// a carried variable that is not the producer's own. Plain loads and layout conversions
/// may be among them: a paged cache's addresses come from its page table's entries, loaded
/// in the loop and converted to the layout of each tile they address.
bool LoopPipeliner::collectProducer(std::vector<const Op *> work) {
  while (!work.empty()) {
    const Op *op = work.back();
    work.pop_back();
    if (!producer_.insert(op).second)
      continue;
    if (op->kind != OpKind::Load && op->kind != OpKind::ConvertLayout &&
        !isRegisterArithmetic(op->kind))
      return false;
    for (const Value *v : op->operands) {
      if (v->def && topLevel_.count(v->def)) {
        work.push_back(v->def);
        continue;
      }
      int j = carriedIndex(v);
      if (j < 0 || !carried_.insert(size_t(j)).second)
        continue;
      const Value *next = body_.yields[size_t(j)];
      if (next->def && topLevel_.count(next->def))
        work.push_back(next->def);
      else if (next != v)
        return false; // advanced by something outside the body's top level
    }
  }
  return true;
}

bool LoopPipeliner::dependsOnCarried(const Op *op, std::map<const Op *, bool> &memo) const {
  auto it = memo.find(op);
  if (it != memo.end())
    return it->second;
  bool d = false;
  for (const Value *v : op->operands) {
    int j = carriedIndex(v);
    if (j >= 0 && carried_.count(size_t(j)))
      d = true;
    else if (v->def && producer_.count(v->def))
      d = d || dependsOnCarried(v->def, memo);
  }
  return memo[op] = d;
}

/// Whether the loads can be staged: their producer part reads only its own carried variables,
/// and nothing else in the loop, or after it, sees those. Leaves the producer part in
/// producer_ and carried_.
bool LoopPipeliner::separable(const std::vector<Op *> &loads) {
  producer_.clear();
  carried_.clear();
  if (!collectProducer(std::vector<const Op *>(loads.begin(), loads.end())))
    return false;
  // The producer reads only its own carried variables (plus the induction variable), and
  // none of the staged loads: those it copies, and never holds in registers.
  std::set<const Op *> loadSet(loads.begin(), loads.end());
  for (const Op *op : producer_)
    for (const Value *v : op->operands) {
      int j = carriedIndex(v);
      if ((j >= 0 && !carried_.count(size_t(j))) || (v->def && loadSet.count(v->def)))
        return false;
    }
  // The rest of the body must not see the producer's carried variables, directly or through
  // values computed from them: the producer runs iterations ahead.
  std::map<const Op *, bool> memo;
  bool clash = false;
  walkRegion(body_, [&](const Op &op) {
    if (producer_.count(&op))
      return;
    for (const Value *v : op.operands) {
      if (v->def && loadSet.count(v->def))
        continue; // read from their stage buffers
      int j = carriedIndex(v);
      if ((j >= 0 && carried_.count(size_t(j))) ||
          (v->def && producer_.count(v->def) && dependsOnCarried(v->def, memo)))
        clash = true;
    }
  });
  for (size_t j = 0; j < body_.yields.size(); ++j) {
    const Value *y = body_.yields[j];
    if (!carried_.count(j) && y->def && producer_.count(y->def) && dependsOnCarried(y->def, memo))
      clash = true;
  }
  // Nor may the code after the loop: the producer's variables end iterations ahead.
  for (size_t j : carried_)
    if (loop_.results[j]->uses > 0)
      clash = true;
  return !clash;
}

void LoopPipeliner::run() {
  for (auto &op : body_.ops)
    topLevel_.insert(op.get());
  std::vector<Op *> loads;
  for (auto &op : body_.ops)
    if (qualifies(*op))
      loads.push_back(op.get());
  if (loads.empty() || !separable(loads))
    return;
  // Side loads join one at a time, each only if the loads staged so far and it still
  // separate; a load the dot operands' addresses are computed from stays in the producer, in
  // registers.
  std::set<const Op *> inProducer = producer_;
  for (auto &op : body_.ops) {
    if (inProducer.count(op.get()) || !qualifiesAsSideLoad(*op))
      continue;
    loads.push_back(op.get());
    if (!separable(loads))
      loads.pop_back();
  }
  if (!separable(loads)) // again: the producer part of the loads kept
    return;

  // Mark the loop. Producer values that the rest also reads are computed by both parts.
  loop_.pipelined = true;
  loop_.producerCarried.assign(loop_.results.size(), false);
  for (size_t j : carried_)
    loop_.producerCarried[j] = true;
  std::set<const Value *> readByConsumer;
  walkRegion(body_, [&](const Op &op) {
    if (!producer_.count(&op))
      for (const Value *v : op.operands)
        readByConsumer.insert(v);
  });
  for (size_t j = 0; j < body_.yields.size(); ++j)
    if (!carried_.count(j))
      readByConsumer.insert(body_.yields[j]);
  // Last to first: an op both parts compute needs its operands in both parts too (an arange
  // under an index that the staged loads and a plain load share; a page table's entries that
  // the staged loads' addresses and the consumer's both come from, read again).
  const std::set<const Op *> staged(loads.begin(), loads.end());
  for (auto it = body_.ops.rbegin(); it != body_.ops.rend(); ++it) {
    Op *op = it->get();
    if (!producer_.count(op))
      continue;
    bool shared = op->result && readByConsumer.count(op->result) && !staged.count(op);
    op->stage = shared ? Op::Stage::Both : Op::Stage::Producer;
    if (shared)
      for (const Value *v : op->operands)
        readByConsumer.insert(v);
  }
  for (Op *l : loads)
    l->asyncCopy = true;
}

void pipelineRegion(Region &r) {
  for (auto &op : r.ops) {
    for (auto &sub : op->regions)
      pipelineRegion(*sub);
    if (op->kind == OpKind::For && !op->unrolled)
      LoopPipeliner(*op).run();
  }
}

} // namespace

void runPipelineLoads(Kernel &k, const Target &target) {
  recountUses(k); // a loop's results read after it keep it from being pipelined
  if (target.cpAsync)
    pipelineRegion(k.body);
}

} // namespace tilec
