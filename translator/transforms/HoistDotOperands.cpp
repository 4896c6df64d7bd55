#include "transforms/HoistDotOperands.h"

#include "ir/Rewriter.h"

#include <map>
#include <set>

namespace tilec {

namespace {

/// Every value defined inside `r` (op results, region arguments), nested regions included.
void definedIn(const Region &r, std::set<const Value *> &out) {
  for (const Value *a : r.args)
    out.insert(a);
  for (auto &op : r.ops) {
    if (op->result)
      out.insert(op->result);
    for (const Value *v : op->results)
      out.insert(v);
    for (auto &sub : op->regions)
      definedIn(*sub, out);
  }
}

class Hoister {
public:
  explicit Hoister(Kernel &k) : k_(k) {}
  void visit(Region &r);

private:
  Kernel &k_;
  // (register tile, region) -> its local_alloc in that region, before the first loop there
  // that reads it: later loops of the region reuse it.
  std::map<std::pair<const Value *, const Region *>, Value *> buffers_;

  void hoistFrom(Op &loop, const Region &where);
};

void Hoister::visit(Region &r) {
  // Outer loops first: an operand invariant in a loop nest (the keys of an attention
  // backward, over a loop of heads around the loops of query blocks) goes to shared memory
  // once, before the whole nest, and its registers are free inside it. Loops are collected
  // first: hoisting inserts ops into `r`.
  std::vector<Op *> loops;
  for (auto &op : r.ops)
    if ((op->kind == OpKind::For || op->kind == OpKind::While) && !op->unrolled)
      loops.push_back(op.get());
  for (Op *loop : loops)
    hoistFrom(*loop, r);
  for (auto &op : r.ops)
    for (auto &sub : op->regions)
      visit(*sub);
}

void Hoister::hoistFrom(Op &loop, const Region &where) {
  std::set<const Value *> inside;
  for (auto &reg : loop.regions)
    definedIn(*reg, inside);
  std::vector<Op *> dots;
  for (auto &reg : loop.regions)
    walkOps(*reg, [&](Op &op) {
      if (op.kind == OpKind::Dot)
        dots.push_back(&op);
    });
  for (Op *dot : dots)
    for (size_t i = 0; i < 2; ++i) {
      Value *v = dot->operands[i];
      if (inside.count(v) || v->type.shared || !v->def || v->def->kind == OpKind::Param)
        continue;
      Value *&buf = buffers_[{v, &where}];
      if (!buf) {
        Type t = v->type;
        t.shared = true;
        Op *alloc = Builder(k_, &loop).create(OpKind::LocalAlloc, {v}, t);
        alloc->srcText = v->def->srcText;
        alloc->line = v->def->line;
        buf = alloc->result;
        buf->name = v->name;
      }
      dot->operands[i] = buf;
      v->uses--;
      buf->uses++;
    }
}

} // namespace

void runHoistDotOperands(Kernel &k) { Hoister(k).visit(k.body); }

} // namespace tilec
